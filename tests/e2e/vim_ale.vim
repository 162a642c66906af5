" The ALE setup the README gives for packgate, sourced by tests/e2e/vim_driver.vim.
" ALE 3.3 (Debian vim-ale) is on the runtimepath; g:packgate_executable names the server.
let g:ale_linters = {'sh': ['packgate']}
let g:ale_set_loclist = 1
call ale#linter#Define('sh', {
\   'name': 'packgate',
\   'lsp': 'stdio',
\   'executable': get(g:, 'packgate_executable', 'packgate'),
\   'command': '%e lsp',
\   'project_root': {buffer -> fnamemodify(bufname(buffer), ':p:h')},
\})

" ALE offers no position encodings and reads every LSP column as a byte column: offer utf-8, so
" the server counts in bytes too and the columns are right after Chinese text or an emoji.
runtime autoload/ale/lsp/message.vim
function! ale#lsp#message#Initialize(root_path, options, capabilities) abort
    let l:capabilities = extend({'general': {'positionEncodings': ['utf-8']}}, a:capabilities)
    return [0, 'initialize', {
    \   'processId': getpid(),
    \   'rootPath': a:root_path,
    \   'capabilities': l:capabilities,
    \   'initializationOptions': a:options,
    \   'rootUri': ale#util#ToURI(a:root_path),
    \}]
endfunction
