-- Headless test of the Neovim plugin against `pragma2cuda lsp` (run by
-- scripts/test-nvim.sh): opens fixtures, waits for diagnostics, requests
-- hover, the code lens and the lowered region, and checks the answers.
-- Exits 0 when every check passed, 1 otherwise.
local bin = assert(os.getenv('P2C_BIN'), 'P2C_BIN')
local root = assert(os.getenv('P2C_ROOT'), 'P2C_ROOT')
local failures = 0

local function check(ok, what)
  if ok then
    io.stdout:write('ok   ' .. what .. '\n')
  else
    failures = failures + 1
    io.stdout:write('FAIL ' .. what .. '\n')
  end
end

local function finish()
  io.stdout:write(failures == 0 and 'nvim: all checks passed\n' or ('nvim: ' .. failures .. ' failed\n'))
  vim.cmd(failures == 0 and 'qa!' or 'cquit 1')
end

local ok, err = pcall(function()
  local p2c = require('pragma2cuda')
  p2c.setup({ cmd = { bin, 'lsp' }, settings = { debounceMs = 50 } })

  -- Diagnostics on a file with an unknown clause.
  vim.cmd('edit ' .. root .. '/fixtures/bad/omp_unknown_clause.c')
  local bad = vim.api.nvim_get_current_buf()
  vim.wait(20000, function()
    return #vim.diagnostic.get(bad) > 0
  end, 50)
  local d = vim.diagnostic.get(bad)
  check(#d == 1, 'one diagnostic on omp_unknown_clause.c (got ' .. #d .. ')')
  if d[1] then
    check(d[1].code == 'E0103', 'its code is E0103 (got ' .. tostring(d[1].code) .. ')')
    check(d[1].lnum == 9, 'on line 10 (got ' .. tostring(d[1].lnum + 1) .. ')')
    check(d[1].message:find('did you mean `map`', 1, true) ~= nil, 'with its suggestion')
  end

  -- Hover, lens and the lowered region on a clean fixture.
  vim.cmd('edit ' .. root .. '/fixtures/in/acc_reduction_gang.c')
  local buf = vim.api.nvim_get_current_buf()
  local line = vim.fn.search('^#pragma acc parallel loop gang copyin(vi')
  check(line > 0, 'the pragma is found')
  vim.wait(20000, function()
    return #vim.lsp.buf_get_clients(buf) > 0 and vim.lsp.buf_get_clients(buf)[1].initialized ~= false
  end, 50)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = line - 1, character = 2 },
  }
  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 20000) or {}
  local text = ''
  for _, r in pairs(hover) do
    if r.result and r.result.contents then
      text = r.result.contents.value
    end
  end
  check(text:find('CUDA kernel `dev_sum_int_L42`', 1, true) ~= nil, 'hover names the kernel')
  check(text:find('strategy `tree`', 1, true) ~= nil, 'hover gives the reduction strategy')
  check(text:find('s : int -- reduction(+); register', 1, true) ~= nil, 'hover says where s lives')

  vim.lsp.codelens.refresh()
  vim.wait(20000, function()
    return #(vim.lsp.codelens.get(buf) or {}) > 0
  end, 50)
  local lenses = vim.lsp.codelens.get(buf) or {}
  check(#lenses == 12, 'a lens per offload pragma (got ' .. #lenses .. ')')
  local first = lenses[1] and lenses[1].command and lenses[1].command.title or ''
  check(first == 'CUDA: dev_sum_int_L42 - block-only, 1 reduction', 'lens title: ' .. first)

  -- The lens command opens the lowered region in a split.
  local wins = #vim.api.nvim_list_wins()
  vim.lsp.commands['pragma2cuda.showLowered'](lenses[1].command, {})
  check(#vim.api.nvim_list_wins() == wins + 1, 'the lowered region opens in a split')
  local lowered = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  check(lowered:find('__global__ void dev_sum_int_L42(', 1, true) ~= nil, 'the split holds the kernel')
  check(lowered:find('dev_prod_int_L59', 1, true) == nil, 'and only this region')
  check(vim.bo.filetype == 'cuda', 'as CUDA')
  vim.cmd('close')

  -- :P2CTranslated reads the virtual document of the whole translation.
  vim.api.nvim_set_current_buf(buf)
  vim.cmd('P2CTranslated')
  local whole = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  -- The editor's views have no `#line` directives.
  local cli = vim.fn.systemlist({ bin, '--no-line-directives', root .. '/fixtures/in/acc_reduction_gang.c' })
  check(#whole > 1000 and table.concat(whole, '\n') == table.concat(cli, '\n'),
    'the translated document is the CLI translation (' .. #whole .. ' lines)')
end)
if not ok then
  check(false, 'error: ' .. tostring(err))
end
finish()
