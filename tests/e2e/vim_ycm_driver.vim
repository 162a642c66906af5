" Drives Vim + YouCompleteMe on a launcher as a user would and writes what it saw as JSON.
" Run by tests/e2e/test_vim.py like vim_driver.vim; the FixIt number comes from stdin, as a user
" types it at YouCompleteMe's prompt.
set nocompatible encoding=utf-8
" Debian's YouCompleteMe runs its ycmd with the system Python; the location list shows the findings.
let g:ycm_server_python_interpreter = '/usr/bin/python3'
let g:ycm_always_populate_location_list = 1
execute 'source ' . fnameescape(expand('<sfile>:p:h') . '/vim_ycm.vim')
let &runtimepath = '/usr/share/vim-youcompleteme,' . &runtimepath
filetype plugin on
runtime plugin/youcompleteme.vim
" YouCompleteMe starts its server on VimEnter, which -es -S runs before nothing.
doautocmd VimEnter
let g:driver = {}

function! s:Wait(Done, what) abort
    let l:deadline = reltimefloat(reltime()) + 30
    while !a:Done() && reltimefloat(reltime()) < l:deadline
        sleep 200m
        " YouCompleteMe refreshes the location list on CursorHold, which -es never fires.
        doautocmd CursorHold
    endwhile
    if !a:Done()
        let g:driver.failed = a:what
    endif
    return a:Done()
endfunction

function! s:Findings() abort
    return filter(getloclist(0), {_, item -> item.type ==# 'E' && item.text =~# 'OFFLINE_PACKED_DATA'})
endfunction

try
    execute 'edit ' . fnameescape(g:driver_file)
    call s:Wait({-> !empty(s:Findings())}, 'diagnostics')
    let s:found = s:Findings()
    if !empty(s:found)
        let s:item = s:found[0]
        let g:driver.diagnostic = {'lnum': s:item.lnum, 'col': s:item.col, 'text': s:item.text}
        call cursor(s:item.lnum, s:item.col + 2)
        YcmCompleter GetHover
        for s:w in range(1, winnr('$'))
            if getwinvar(s:w, '&previewwindow')
                let g:driver.hover = join(getbufline(winbufnr(s:w), 1, '$'), "\n")
            endif
        endfor
        pclose
        call cursor(s:item.lnum, s:item.col + 2)
        YcmCompleter FixIt
        call s:Wait({-> getline(s:item.lnum + 1) =~# 'OFFLINE_PACKED_DATA'}, 'the FixIt')
        write
        call s:Wait({-> empty(s:Findings())}, 'the finding gone')
        let g:driver.remaining = len(s:Findings())
    endif
catch
    let g:driver.error = v:exception . ' at ' . v:throwpoint
endtry
call writefile([json_encode(g:driver)], g:driver_out)
qall!
