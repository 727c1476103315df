" Vim syntax file
" Language: routine test files (NAME.rt.test) of the 'routine' tool
" The line forms follow grammar.md's "Test files" section.

if exists("b:current_syntax")
  finish
endif

" IDs hold '-', so 'not-scheduled' and 'brush-teeth' are one word each.
syntax iskeyword @,48-57,_,-

syntax match routinetestComment "\(^\|\s\)\zs#.*$" contains=@Spell
syntax match routinetestEscape +\\\(u{\x\{1,8}}\|["\\nt]\)+ contained
syntax region routinetestString start=+"+ skip=+\\\\\|\\"+ end=+"\|$+ oneline contained contains=routinetestEscape

syntax match routinetestCase "^\s*\zscase\>" nextgroup=routinetestName skipwhite
syntax match routinetestName "\(\s#\)\@!.\{-}\ze\(\s\+#\|\s*$\)" contained contains=routinetestString
syntax match routinetestSetting "^\s*\zs\(routine\|history\|date\|weekday\)\>" nextgroup=routinetestText skipwhite
syntax match routinetestInput "^\s*\zs\(answer\|do\)\>" nextgroup=routinetestText skipwhite
syntax match routinetestText "[^#" \t][^"]\{-}\ze\(\s\+#\|\s*$\)\|\"[^"]*\"" contained contains=routinetestString
syntax match routinetestExpect "^\s*\zsexpect\>" nextgroup=routinetestStrictness,routinetestEvent skipwhite
syntax keyword routinetestStrictness next eventually contained nextgroup=routinetestEvent skipwhite
syntax keyword routinetestEvent habit value question not-reached contained nextgroup=routinetestNode skipwhite
syntax keyword routinetestEvent end ways contained nextgroup=routinetestResult,routinetestNumber skipwhite
syntax match routinetestNode "[A-Za-z_][A-Za-z0-9_-]*" contained nextgroup=routinetestResult,routinetestNumber skipwhite
syntax keyword routinetestResult done skipped not-scheduled completed quit contained
syntax match routinetestNumber "\<\d\+\(\.\d\+\)\=\>" contained

highlight default link routinetestComment Comment
highlight default link routinetestCase Keyword
highlight default link routinetestName Title
highlight default link routinetestSetting Keyword
highlight default link routinetestInput Statement
highlight default link routinetestExpect Statement
highlight default link routinetestStrictness Keyword
highlight default link routinetestEvent Keyword
highlight default link routinetestNode Identifier
highlight default link routinetestResult Constant
highlight default link routinetestNumber Number
highlight default link routinetestText String
highlight default link routinetestString String
highlight default link routinetestEscape SpecialChar

let b:current_syntax = "routinetest"
