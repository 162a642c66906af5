-- :PackgateLaunches: what each launch of the current script sees (its argv and environment, per
-- distinct path), asked of the server's packgate.showLaunches and shown in a scratch buffer
-- beside the script. lsp/packgate.lua creates the command in every buffer packgate attaches to.

local M = {}

M.command = 'packgate.showLaunches'

--- The scratch buffer's lines from the server's text.
local function lines_of(text)
  local lines = vim.split(text, '\n', { plain = true })
  if lines[#lines] == '' then
    table.remove(lines)
  end
  return lines
end

--- Open text in a new scratch buffer in a vertical split beside the current window.
function M.open(text, name)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines_of(text))
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].modifiable = false
  pcall(vim.api.nvim_buf_set_name, buf, name)
  vim.cmd('vsplit')
  vim.api.nvim_win_set_buf(0, buf)
  return buf
end

--- Ask the packgate server attached to bufnr (0: the current buffer) what its launches see.
function M.show(bufnr)
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local client = vim.lsp.get_clients({ bufnr = bufnr, name = 'packgate' })[1]
  if client == nil then
    vim.notify('packgate: no packgate server is attached to this buffer', vim.log.levels.WARN)
    return
  end
  local uri = vim.uri_from_bufnr(bufnr)
  local params = { command = M.command, arguments = { uri } }
  -- 0.11 calls methods on the client; 0.10 has them as fields taking no self
  local request = vim.fn.has('nvim-0.11') == 1 and function(...) return client:request(...) end or client.request
  request('workspace/executeCommand', params, function(err, result)
    if err ~= nil or type(result) ~= 'string' then
      local why = err ~= nil and (err.message or tostring(err)) or 'no answer (see :LspLog)'
      vim.notify('packgate: could not tell what the launches see: ' .. why, vim.log.levels.WARN)
      return
    end
    M.open(result, 'packgate://launches/' .. vim.fn.fnamemodify(vim.uri_to_fname(uri), ':t') .. '#' .. bufnr)
  end, bufnr)
end

--- Create :PackgateLaunches in bufnr (called when the server attaches).
function M.attach(bufnr)
  vim.api.nvim_buf_create_user_command(bufnr, 'PackgateLaunches', function()
    M.show(bufnr)
  end, { desc = 'packgate: show what each launch sees (argv and environment, per path)' })
end

return M
