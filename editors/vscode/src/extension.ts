// pragma2cuda for VS Code: starts `pragma2cuda lsp` for C files (diagnostics
// with quick fixes, hover, code lens, go-to kernel), shows the lowered CUDA
// of a region or of the whole file, and serves the server's virtual
// documents (`pragmacuda:` translated files and code explanations).
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';

const SCHEME = 'pragmacuda';
let client: LanguageClient | undefined;

interface Lowered {
  kernel: string;
  cuda: string;
  range: unknown;
}

function settings(): Record<string, unknown> {
  const c = vscode.workspace.getConfiguration('pragma2cuda');
  return {
    reductionStrategy: c.get('reductionStrategy'),
    sharedBudget: c.get('sharedBudget'),
    preprocess: c.get('preprocess'),
    preprocessorFlags: c.get('preprocessorFlags'),
    debounceMs: c.get('debounceMs'),
  };
}

async function showText(text: string, language: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ content: text, language });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
}

async function showLowered(uri: string, position: { line: number; character: number }): Promise<void> {
  if (!client) {
    return;
  }
  const r = await client.sendRequest<Lowered | null>('pragma2cuda/lowered', {
    textDocument: { uri },
    position,
  });
  if (!r) {
    vscode.window.showWarningMessage('pragma2cuda: no offload region here');
    return;
  }
  await showText(r.cuda, 'cuda-cpp');
}

// The virtual documents: `pragmacuda:///a/m.c.cu` (a translated file) and
// `pragmacuda:explain/E0103` (a code's documentation).
class Virtual implements vscode.TextDocumentContentProvider {
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (!client) {
      return '';
    }
    const s = uri.toString(true);
    const code = /^pragmacuda:explain\/(\w+)$/.exec(s);
    if (code) {
      return (await client.sendRequest<string | null>('pragma2cuda/explain', { code: code[1] })) ?? '';
    }
    const t = await client.sendRequest<{ text: string | null; errors: number }>('pragma2cuda/translated', {
      textDocument: { uri: s },
    });
    return t.text ?? `// pragma2cuda: no translation (${t.errors} errors)\n`;
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const path = vscode.workspace.getConfiguration('pragma2cuda').get<string>('path') ?? 'pragma2cuda';
  const server: ServerOptions = { command: path, args: ['lsp'] };
  const options: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file', language: 'c' }],
    initializationOptions: settings(),
    synchronize: { configurationSection: 'pragma2cuda' },
  };
  client = new LanguageClient('pragma2cuda', 'pragma2cuda', server, options);
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, new Virtual()),
    // The code lens command: (document URI, pragma position).
    vscode.commands.registerCommand('pragma2cuda.showLowered', showLowered),
    vscode.commands.registerCommand('pragma2cuda.showLoweredHere', async () => {
      const e = vscode.window.activeTextEditor;
      if (e) {
        const p = e.selection.active;
        await showLowered(e.document.uri.toString(), { line: p.line, character: p.character });
      }
    }),
    vscode.commands.registerCommand('pragma2cuda.showTranslated', async () => {
      const e = vscode.window.activeTextEditor;
      if (e) {
        const source = e.document.uri.toString();
        const virtual = source.replace(/^file:/, `${SCHEME}:`) + '.cu';
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(virtual));
        await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside });
      }
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
