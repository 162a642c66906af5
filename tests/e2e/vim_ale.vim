" The README's ALE setup for packgate (tests/e2e/test_readme_editors.py keeps the two equal).
let g:ale_linters = {'sh': ['packgate']}
call ale#linter#Define('sh', {
\   'name': 'packgate',
\   'lsp': 'stdio',
\   'executable': 'packgate',
\   'command': '%e lsp',
\   'project_root': {buffer -> fnamemodify(bufname(buffer), ':p:h')},
\})

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
