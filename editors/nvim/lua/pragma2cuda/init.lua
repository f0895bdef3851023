-- pragma2cuda for Neovim (0.7 or newer): starts `pragma2cuda lsp` for C
-- files, shows the code lens above offload pragmas, and opens the lowered
-- CUDA of a region (:P2CLowered) or of the whole file (:P2CTranslated)
-- in a split. Virtual documents (`pragmacuda:...`) are read through the
-- server.
local M = {}

M.config = {
  cmd = { 'pragma2cuda', 'lsp' },
  filetypes = { 'c' },
  -- initializationOptions / settings: reductionStrategy, sharedBudget,
  -- preprocess, preprocessorFlags, debounceMs
  settings = {},
  split = 'vsplit',
}

local client_id = nil

local function client()
  if client_id then
    return vim.lsp.get_client_by_id(client_id)
  end
end

function M.start()
  local c = client()
  if c and not c.is_stopped() then
    return client_id
  end
  client_id = vim.lsp.start_client({
    name = 'pragma2cuda',
    cmd = M.config.cmd,
    root_dir = vim.fn.getcwd(),
    init_options = M.config.settings,
    settings = { pragma2cuda = M.config.settings },
    on_attach = function(_, buf)
      pcall(vim.lsp.codelens.refresh)
      vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'TextChanged' }, {
        buffer = buf,
        callback = function()
          pcall(vim.lsp.codelens.refresh)
        end,
      })
    end,
  })
  return client_id
end

function M.attach(buf)
  local id = M.start()
  if id then
    vim.lsp.buf_attach_client(buf, id)
  end
end

-- A scratch buffer in a split with `lines`.
local function show(name, lines, ft)
  vim.cmd(M.config.split)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_win_set_buf(0, buf)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  pcall(vim.api.nvim_buf_set_name, buf, name)
  vim.bo[buf].filetype = ft
  vim.bo[buf].modifiable = false
  return buf
end

local function request(method, params, buf)
  local c = client()
  if not c then
    return nil, 'pragma2cuda: the server is not running'
  end
  local r, err = c.request_sync(method, params, 10000, buf or 0)
  if not r then
    return nil, err
  end
  if r.err then
    return nil, r.err.message
  end
  return r.result
end

-- The lowered code of the region at (uri, position) in a split.
function M.show_lowered_at(uri, position)
  local r, err = request('pragma2cuda/lowered', {
    textDocument = { uri = uri },
    position = position,
  }, vim.uri_to_bufnr(uri))
  if err then
    vim.notify(err, vim.log.levels.ERROR)
    return
  end
  if r == nil or r == vim.NIL then
    vim.notify('pragma2cuda: no offload region here', vim.log.levels.WARN)
    return
  end
  return show('pragma2cuda-lowered/' .. r.kernel .. '.cu', vim.split(r.cuda, '\n', { plain = true }), 'cuda')
end

-- :P2CLowered: the region under the cursor.
function M.show_lowered()
  local p = vim.lsp.util.make_position_params()
  return M.show_lowered_at(p.textDocument.uri, p.position)
end

-- Fills a `pragmacuda:` buffer: a translated file or a code's explanation.
function M.read_virtual(buf, uri)
  local lines
  local code = uri:match('^pragmacuda:explain/(%w+)$')
  if code then
    local text = request('pragma2cuda/explain', { code = code }) or ''
    lines = vim.split(text, '\n', { plain = true })
  else
    local r, err = request('pragma2cuda/translated', { textDocument = { uri = uri } })
    if r and r.text ~= vim.NIL then
      lines = vim.split(r.text:gsub('\n$', ''), '\n', { plain = true })
    else
      lines = { '// pragma2cuda: no translation (' .. (err or ((r and r.errors or '?') .. ' errors')) .. ')' }
    end
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = code and 'text' or 'cuda'
end

-- :P2CTranslated: the whole translated file in a split.
function M.show_translated()
  local uri = vim.uri_from_bufnr(0)
  local virtual = uri:gsub('^file:', 'pragmacuda:') .. '.cu'
  vim.cmd(M.config.split .. ' ' .. vim.fn.fnameescape(virtual))
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', M.config, opts or {})
  local group = vim.api.nvim_create_augroup('pragma2cuda', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.config.filetypes,
    callback = function(a)
      M.attach(a.buf)
    end,
  })
  vim.api.nvim_create_autocmd('BufReadCmd', {
    group = group,
    pattern = { 'pragmacuda://*', 'pragmacuda:explain/*' },
    callback = function(a)
      M.read_virtual(a.buf, a.match)
    end,
  })
  vim.api.nvim_create_user_command('P2CLowered', M.show_lowered, {})
  vim.api.nvim_create_user_command('P2CTranslated', M.show_translated, {})
  -- The code lens command.
  vim.lsp.commands['pragma2cuda.showLowered'] = function(command)
    M.show_lowered_at(command.arguments[1], command.arguments[2])
  end
end

return M
