-- packgate for Neovim 0.11+: put the folder holding this lsp/ directory on 'runtimepath'
-- and call vim.lsp.enable('packgate'). Override any field with vim.lsp.config('packgate', {...}).
--
-- Neovim's defaults then do the rest: diagnostics in the sign column (pushed: Neovim 0.11 takes
-- no workspace/diagnostic/refresh, and a script's findings also change when a file it sources
-- changes), `K` for the bilingual hover, `gra` for the quick fixes. `:PackgateLaunches` shows
-- what each launch of the script sees (lua/packgate/launches.lua).

---@type vim.lsp.Config
return {
  cmd = { 'packgate', 'lsp' },
  filetypes = { 'sh', 'bash' },
  -- The nearest of these marks the project: packgate reads [tool.packgate] from pyproject.toml
  -- or .packgate.toml upward from each file, and a config file there wins over these settings.
  root_markers = { '.git', 'pyproject.toml', '.packgate.toml' },
  -- :PackgateLaunches in every buffer the server attaches to (a vim.lsp.config that sets its
  -- own on_attach replaces this one: call require('packgate.launches').attach(bufnr) there).
  on_attach = function(_, bufnr)
    require('packgate.launches').attach(bufnr)
  end,
  -- The `packgate` section with the server's defaults (server/packgate/core/settings.py SCHEMA
  -- and EDITOR_ONLY_KEYS);
  -- a test compares the two. Sent on start and answered to workspace/configuration.
  settings = {
    packgate = {
      -- auto | ov2 | ov15 | three-gate: which training code the scripts launch
      -- (auto: read from the project's Python code, else ov2).
      profile = 'auto',
      -- en | zh | both: language of messages and hover text.
      lang = 'both',
      -- Only report these rules (codes, names, code prefixes such as 'PG00', or 'ALL');
      -- empty means every rule.
      select = {},
      -- Report these rules as well as the selected ones.
      extendSelect = {},
      -- Never report these rules.
      ignore = {},
      -- Per-rule severity overrides, e.g. { PG008 = 'hint', ['dead-var'] = 'error' }; 'off' disables.
      -- vim.empty_dict() so that the empty default goes out as a JSON object, not an array.
      severity = vim.empty_dict(),
      -- Rules not reported in the files a glob matches (against the absolute path or the file
      -- name), e.g. { ['**/vendor/**'] = { 'PG002' } }; a project's config file sets its own.
      perFileIgnores = vim.empty_dict(),
      -- The team's own relations between variables and trainer options (PG014), the keys of
      -- [[tool.packgate.contract]], e.g. { { kind = 'both', vars = { 'A', 'B' } } }.
      contract = {},
      -- Editor-only limits of the workspace scan that references (`grr`) make: at most this many
      -- shell scripts of the workspace folders, and files looked at to find them (0: no limit).
      -- You are told once when one bites. Configuration files do not set these.
      workspace = { maxScripts = 10000, maxFiles = 200000 },
    },
  },
}
