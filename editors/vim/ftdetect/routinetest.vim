" Test files of the 'routine' tool: NAME.rt.test beside the routine they test.
autocmd BufRead,BufNewFile *.rt.test,*.yaml.test,*.yml.test setfiletype routinetest
