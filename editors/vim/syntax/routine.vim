" Vim syntax file
" Language: routine (.rt), the routine language of the 'routine' tool
" The classes follow grammar.md; 'routine lsp' gives exact semantic tokens on top.

if exists("b:current_syntax")
  finish
endif

" IDs hold '-', so 'a-end' is one ID and not the keyword 'end'.
syntax iskeyword @,48-57,_,-

syntax keyword routineKeyword routine start for target note end
syntax keyword routineDeclare habit question nextgroup=routineDeclaration skipwhite
syntax match routineDeclaration "[A-Za-z_][A-Za-z0-9_-]*" contained
syntax match routineGather "^\s*\zsthen\ze\s*->"
syntax match routineArrow "->" nextgroup=routineTarget skipwhite
syntax match routineComma "," contained nextgroup=routineTarget skipwhite skipnl
syntax match routineTarget "[A-Za-z_][A-Za-z0-9_-]*" contained nextgroup=routineComma skipwhite
syntax keyword routineOn on nextgroup=routineDay skipwhite
syntax keyword routineDay mon tue wed thu fri sat sun weekdays weekends contained nextgroup=routineDay skipwhite
syntax match routineDuration "\<\d\+[hms]\(\d\+[ms]\)\=\(\d\+s\)\=\>"
syntax match routineNumber "\<\d\+\(\.\d\+\)\=\>"
syntax match routinePerWeek "\<\d\+\s\+\zsper\s\+week\>"
syntax match routineEscape +\\\(u{\x\{1,8}}\|["\\nt]\)+ contained
syntax region routineString start=+"+ skip=+\\\\\|\\"+ end=+"\|$+ oneline contains=routineEscape
syntax match routineComment "#.*$" contains=@Spell

highlight default link routineKeyword Keyword
highlight default link routineDeclare Keyword
highlight default link routineOn Keyword
highlight default link routineGather Keyword
highlight default link routinePerWeek Keyword
highlight default link routineDeclaration Function
highlight default link routineTarget Identifier
highlight default link routineArrow Operator
highlight default link routineComma Delimiter
highlight default link routineDay Constant
highlight default link routineDuration Number
highlight default link routineNumber Number
highlight default link routineString String
highlight default link routineEscape SpecialChar
highlight default link routineComment Comment

let b:current_syntax = "routine"
