" Drives Vim + ALE on a launcher as a user would and writes what it saw as JSON.
" Run by tests/e2e/test_vim.py: vim -N -u NONE -i NONE -n -es -S vim_driver.vim, with packgate
" on PATH and g:driver_file, g:driver_out set by --cmd; the quick fix number comes from stdin,
" as a user types it at ALE's prompt.
set nocompatible encoding=utf-8
let &runtimepath = '/usr/share/vim-ale,' . &runtimepath
filetype plugin on
runtime plugin/ale.vim
execute 'source ' . fnameescape(expand('<sfile>:p:h') . '/vim_ale.vim')
if !get(g:, 'driver_without_utf8', 0)
    execute 'source ' . fnameescape(expand('<sfile>:p:h') . '/vim_ale_utf8.vim')
endif
let g:driver = {}

function! s:Wait(Done, what) abort
    let l:deadline = reltimefloat(reltime()) + 20
    while !a:Done() && reltimefloat(reltime()) < l:deadline
        sleep 100m
    endwhile
    if !a:Done()
        let g:driver.failed = a:what
    endif
    return a:Done()
endfunction

function! s:Findings() abort
    return filter(getloclist(0), {_, item -> item.text =~# 'PG001'})
endfunction

function! s:Finish() abort
    call writefile([json_encode(g:driver)], g:driver_out)
    qall!
endfunction

try
    execute 'edit ' . fnameescape(g:driver_file)
    call s:Wait({-> !empty(s:Findings())}, 'diagnostics')
    let s:found = s:Findings()
    if !empty(s:found)
        let s:item = s:found[0]
        let g:driver.diagnostic = {'lnum': s:item.lnum, 'col': s:item.col, 'end_col': get(s:item, 'end_col', 0), 'text': s:item.text}
        " The cursor on the gate (byte column from the loclist), then :ALEHover to the preview window.
        call cursor(s:item.lnum, s:item.col + 2)
        let g:ale_hover_to_preview = 1
        ALEHover
        call s:Wait({-> !empty(filter(range(1, winnr('$')), {_, w -> getwinvar(w, '&previewwindow')}))}, 'hover')
        for s:w in range(1, winnr('$'))
            if getwinvar(s:w, '&previewwindow')
                let g:driver.hover = join(getbufline(winbufnr(s:w), 1, '$'), "\n")
            endif
        endfor
        pclose
        call cursor(s:item.lnum, s:item.col + 2)
        ALECodeAction
        call s:Wait({-> getline(s:item.lnum + 1) =~# 'OFFLINE_PACKED_DATA'}, 'the quick fix')
        write
        call s:Wait({-> empty(s:Findings())}, 'the finding gone')
        let g:driver.remaining = len(s:Findings())
    endif
catch
    let g:driver.error = v:exception . ' at ' . v:throwpoint
endtry
call s:Finish()
