" The README's ALE setup for packgate (tests/e2e/test_readme_editors.py keeps the two equal).
let g:ale_linters = {'sh': ['packgate']}
call ale#linter#Define('sh', {
\   'name': 'packgate',
\   'lsp': 'stdio',
\   'executable': 'packgate',
\   'command': '%e lsp',
\   'project_root': {buffer -> fnamemodify(bufname(buffer), ':p:h')},
\})
