" Routine files: the .rt language of the 'routine' tool.
autocmd BufRead,BufNewFile *.rt setfiletype routine
