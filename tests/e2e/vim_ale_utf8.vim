" The README's utf-8 offer for ALE, which reads every LSP column as a byte column.
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
