-- Drives packgate through Neovim's own LSP client, for tests/e2e/test_nvim.py.
--
-- Run as `nvim --clean --headless -l nvim_driver.lua CONFIG.json`. CONFIG names the
-- nvim-client/ folder, the server command, the script to open, where to write the result and
-- the timeout of each wait. The driver only collects what Neovim saw, step by step, and writes
-- it as JSON; pytest judges it, so a failure there shows the facts rather than a Lua trace.
-- Every wait is bounded, and the driver always writes its result and quits.

local cfg = vim.json.decode(table.concat(vim.fn.readfile(assert(_G.arg[1], 'usage: -l nvim_driver.lua CONFIG.json')), '\n'))
local timeout = cfg.timeout_ms or 10000

local result = { steps = {}, messages = {}, log_messages = {} }

local function write_result()
  vim.fn.writefile({ vim.json.encode(result) }, cfg.result)
end

local function step(name)
  result.steps[#result.steps + 1] = name
end

local function wait_for(what, predicate, ms)
  -- A server that quits ends the wait at once rather than at the timeout.
  local ok = vim.wait(ms or timeout, function()
    return predicate() or result.server_exit ~= nil
  end, 20)
  if result.server_exit ~= nil then
    error(('the server exited (code %s, signal %s) while waiting for %s'):format(
      result.server_exit.code, result.server_exit.signal, what), 0)
  end
  if not ok then
    error(('timed out after %d ms waiting for %s'):format(ms or timeout, what), 0)
  end
end

--- The diagnostics of one rule (all if code is nil) in a buffer; rows 0-based, columns in bytes.
local function diagnostics_of(bufnr, code)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if code == nil or d.code == code then
      out[#out + 1] = d
    end
  end
  return out
end

local function plain(d)
  return {
    lnum = d.lnum,
    col = d.col,
    end_lnum = d.end_lnum,
    end_col = d.end_col,
    code = d.code,
    source = d.source,
    severity = d.severity,
    message = d.message,
    lsp_range = d.user_data and d.user_data.lsp and d.user_data.lsp.range or vim.NIL,
  }
end

local function hover_text(contents)
  if type(contents) == 'string' then
    return 'plaintext', contents
  end
  if contents.kind then
    return contents.kind, contents.value
  end
  if contents.value then -- MarkedString { language, value }
    return 'markedstring', contents.value
  end
  local parts = {}
  for _, c in ipairs(contents) do
    parts[#parts + 1] = type(c) == 'string' and c or c.value
  end
  return 'markedstring[]', table.concat(parts, '\n')
end

local function run()
  step('setup')
  vim.opt.runtimepath:prepend(cfg.client_dir)
  result.nvim_version = tostring(vim.version())

  -- The config exactly as a user gets it from nvim-client/lsp/packgate.lua.
  local shipped = vim.lsp.config.packgate
  if not shipped then
    error('vim.lsp.config.packgate is nil: lsp/packgate.lua not found on runtimepath', 0)
  end
  result.shipped = {
    cmd = shipped.cmd,
    filetypes = shipped.filetypes,
    root_markers = shipped.root_markers,
    -- Encoded here so that pytest sees what goes over the wire ({} versus []).
    settings_json = vim.json.encode(shipped.settings),
  }

  -- The one override the test makes: the server from this venv, whatever PATH holds.
  vim.lsp.config('packgate', {
    cmd = cfg.cmd,
    on_exit = function(code, signal)
      result.server_exit = { code = code, signal = signal }
    end,
    handlers = {
      ['window/showMessage'] = function(_, params)
        result.messages[#result.messages + 1] = { type = params.type, message = params.message }
      end,
      ['window/logMessage'] = function(_, params)
        if params.type <= vim.lsp.protocol.MessageType.Warning then
          result.log_messages[#result.log_messages + 1] = { type = params.type, message = params.message }
        end
      end,
    },
  })
  vim.lsp.enable('packgate')

  step('attach')
  vim.cmd.edit(vim.fn.fnameescape(cfg.script))
  local bufnr = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[bufnr].filetype
  local client
  wait_for('the packgate client to attach and initialize', function()
    client = vim.lsp.get_clients({ bufnr = bufnr, name = 'packgate' })[1]
    return client ~= nil and client.initialized == true
  end)
  result.offset_encoding = client.offset_encoding
  result.root_dir = client.root_dir or vim.NIL
  local caps = client.server_capabilities or {}
  result.server_pull = caps.diagnosticProvider ~= nil
  result.server_hover = caps.hoverProvider ~= nil and caps.hoverProvider ~= false
  result.server_code_action = caps.codeActionProvider ~= nil and caps.codeActionProvider ~= false
  -- Neovim's own keys reach packgate with no mapping from the user: K (set on attach) and gra.
  local function rhs_of(lhs)
    local map = vim.fn.maparg(lhs, 'n', false, true)
    return map.desc or map.rhs or (map.callback and 'callback') or ''
  end
  result.keys = { K = rhs_of('K'), gra = rhs_of('gra') }

  step('diagnostics')
  wait_for('a PG001 diagnostic', function()
    return #diagnostics_of(bufnr, 'PG001') > 0
  end)
  local pg001 = diagnostics_of(bufnr, 'PG001')[1]
  result.diagnostics = vim.tbl_map(plain, vim.diagnostic.get(bufnr))
  result.pg001 = plain(pg001)
  result.pull_count = #vim.diagnostic.get(bufnr, { namespace = vim.lsp.diagnostic.get_namespace(client.id, true) })
  result.push_count = #vim.diagnostic.get(bufnr, { namespace = vim.lsp.diagnostic.get_namespace(client.id, false) })

  step('hover')
  -- The cursor on the gate, where a user would press K.
  vim.api.nvim_win_set_cursor(0, { pg001.lnum + 1, pg001.col })
  local hover_params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  result.hover_position = hover_params.position
  local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', hover_params, timeout)
  local answer = hover and hover[client.id]
  if not answer then
    error('no hover answer within the timeout', 0)
  end
  if answer.err then
    error('hover failed: ' .. vim.inspect(answer.err), 0)
  end
  if not answer.result then
    error('hover returned nothing at the gate', 0)
  end
  result.hover_kind, result.hover = hover_text(answer.result.contents)

  step('code action')
  local lsp_diag = pg001.user_data.lsp
  local action_params = {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    range = lsp_diag.range,
    context = { diagnostics = { lsp_diag }, triggerKind = 1 },
  }
  local actions = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', action_params, timeout)
  local answered = actions and actions[client.id]
  if not answered or answered.err then
    error('code action request failed: ' .. vim.inspect(answered and answered.err), 0)
  end
  result.actions = {}
  local chosen
  for _, action in ipairs(answered.result or {}) do
    result.actions[#result.actions + 1] = { title = action.title, kind = action.kind or vim.NIL, isPreferred = action.isPreferred or false }
    local is_fix = action.kind and vim.startswith(action.kind, 'quickfix')
    if is_fix and action.title:find('OFFLINE_PACKED_DATA', 1, true) and (not chosen or action.isPreferred) then
      chosen = action
    end
  end
  if not chosen then
    error('no quickfix that exports OFFLINE_PACKED_DATA among the code actions', 0)
  end
  result.chosen_action = chosen.title
  if not chosen.edit and client:supports_method('codeAction/resolve') then
    local resolved = vim.lsp.buf_request_sync(bufnr, 'codeAction/resolve', chosen, timeout)
    chosen = resolved and resolved[client.id] and resolved[client.id].result or chosen
  end
  if not chosen.edit then
    error('the chosen quickfix carries no workspace edit', 0)
  end

  step('apply')
  -- Neovim's own edit machinery, in the encoding the client negotiated.
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  result.lines_after = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)

  step('cleared')
  wait_for('the PG001 diagnostic to disappear after the fix', function()
    return #diagnostics_of(bufnr, 'PG001') == 0
  end)
  result.diagnostics_after = vim.tbl_map(plain, vim.diagnostic.get(bufnr))

  step('sourced file')
  -- A launcher that sources env.sh, and an edit of env.sh alone: the launcher's finding must go
  -- without its own buffer changing (Neovim 0.11 pulls only when a buffer changes, so the
  -- server pushes to it).
  vim.cmd('hide edit ' .. vim.fn.fnameescape(cfg.launcher))
  local launcher = vim.api.nvim_get_current_buf()
  wait_for('a PG001 diagnostic in the launcher that sources env.sh', function()
    return #diagnostics_of(launcher, 'PG001') > 0
  end)
  result.launcher_before = vim.tbl_map(plain, vim.diagnostic.get(launcher))
  vim.cmd('hide edit ' .. vim.fn.fnameescape(cfg.env))
  local env = vim.api.nvim_get_current_buf()
  wait_for('packgate to attach to env.sh', function()
    return vim.lsp.get_clients({ bufnr = env, name = 'packgate' })[1] ~= nil
  end)
  vim.api.nvim_buf_set_lines(env, -1, -1, false, { cfg.env_fix })
  wait_for('the launcher finding to go after env.sh alone was edited', function()
    return #diagnostics_of(launcher, 'PG001') == 0
  end)
  result.launcher_after = vim.tbl_map(plain, vim.diagnostic.get(launcher))
  result.launcher_lines = vim.api.nvim_buf_get_lines(launcher, 0, -1, false)

  step('shutdown')
  client:stop()
  result.stopped = vim.wait(3000, function()
    return client:is_stopped()
  end, 20)

  step('done')
end

local ok, err = xpcall(run, function(e)
  return type(e) == 'string' and e or vim.inspect(e)
end)
if not ok then
  result.error = err
  result.failed_step = result.steps[#result.steps]
  -- What the buffer and the diagnostics looked like when it stopped, for the failure message.
  local bufnr = vim.api.nvim_get_current_buf()
  result.lines_at_failure = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  result.diagnostics_at_failure = vim.tbl_map(plain, vim.diagnostic.get(bufnr))
end
write_result()
vim.cmd('qall!')
