" The README's YouCompleteMe setup for packgate (tests/e2e/test_readme_editors.py keeps the two equal).
let g:ycm_language_server = [
\   {'name': 'packgate', 'cmdline': ['packgate', 'lsp'], 'filetypes': ['sh', 'bash']},
\]
