-- :checkhealth packgate -- is the config on the runtimepath, is the server found, which version,
-- and which position encoding the running clients agreed on.
local M = {}

local health = vim.health

--- The command of the packgate config, or nil with the reason.
local function server_command()
  if not (vim.lsp.config and vim.lsp.enable) then
    return nil, 'Neovim ' .. tostring(vim.version()) .. ' has no vim.lsp.config: 0.11 or newer is needed (nvim-client/README.md has the 0.10 setup)'
  end
  local ok, config = pcall(function()
    return vim.lsp.config.packgate
  end)
  if not ok or type(config) ~= 'table' then
    return nil, "no lsp/packgate.lua on the runtimepath: put the packgate repository's nvim-client/ folder on it"
  end
  return config.cmd, nil
end

function M.check()
  health.start('packgate')
  local cmd, problem = server_command()
  if problem then
    health.error(problem)
    return
  end
  local files = vim.api.nvim_get_runtime_file('lsp/packgate.lua', true)
  health.ok('config: ' .. table.concat(files, ', '))
  if type(cmd) ~= 'table' or type(cmd[1]) ~= 'string' then
    health.info('cmd is a function: the server it starts is not checked here')
    return
  end
  local executable = vim.fn.exepath(cmd[1])
  if executable == '' then
    health.error(('server not found: %s is not an executable on PATH'):format(cmd[1]), {
      'install packgate (python3 -m pip install <the packgate repository>), or',
      "name it: vim.lsp.config('packgate', { cmd = { '/path/to/packgate', 'lsp' } })",
    })
    return
  end
  health.ok('server: ' .. executable)
  local result = vim.system({ executable, '--version' }, { text = true }):wait(15000)
  local version = vim.trim(result.stdout or '')
  if result.code == 0 and version:match('^packgate ') then
    health.ok('version: ' .. version)
  else
    health.error(('%s --version failed (exit %s): %s'):format(executable, tostring(result.code), vim.trim(result.stderr or '')))
  end
  local clients = vim.lsp.get_clients({ name = 'packgate' })
  if #clients == 0 then
    health.info("no packgate client running: open a sh or bash buffer (after vim.lsp.enable('packgate'))")
  end
  for _, client in ipairs(clients) do
    -- Neovim offers utf-8 first; packgate takes it, so its columns are Neovim's byte columns.
    local report = client.offset_encoding == 'utf-8' and health.ok or health.warn
    report(('client %d (root %s): position encoding %s'):format(client.id, client.root_dir or '-', client.offset_encoding))
  end
end

return M
