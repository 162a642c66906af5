-- :PackgateLaunches through Neovim's own LSP client, for tests/e2e/test_nvim_launches.py.
--
-- nvim --clean --headless -n -l nvim_launches_driver.lua CLIENT_DIR PACKGATE SCRIPT RESULT
-- opens SCRIPT with nvim-client/ on the runtimepath, runs the command and writes what the
-- scratch buffer shows to RESULT (JSON); every wait is bounded, and it always writes and quits.

local client_dir, packgate, script, result_path = _G.arg[1], _G.arg[2], _G.arg[3], _G.arg[4]
local result = {}

local ok, err = pcall(function()
  vim.opt.runtimepath:prepend(client_dir)
  vim.lsp.config('packgate', { cmd = { packgate, 'lsp' } })
  vim.lsp.enable('packgate')
  vim.cmd.edit(vim.fn.fnameescape(script))
  local script_buf = vim.api.nvim_get_current_buf()
  assert(vim.wait(10000, function()
    return vim.api.nvim_buf_get_commands(script_buf, {}).PackgateLaunches ~= nil
  end, 20), 'the server attached no :PackgateLaunches to the buffer')
  vim.cmd('PackgateLaunches')
  assert(vim.wait(10000, function()
    return #vim.api.nvim_list_wins() == 2
  end, 20), ':PackgateLaunches opened no window')
  local shown = vim.api.nvim_get_current_buf()
  result.lines = vim.api.nvim_buf_get_lines(shown, 0, -1, false)
  result.buftype = vim.bo[shown].buftype
  result.scratch_is_not_the_script = shown ~= script_buf
end)
if not ok then
  result.error = tostring(err)
end
vim.fn.writefile({ vim.json.encode(result) }, result_path)
vim.cmd('qa!')
