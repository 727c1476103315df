-- Headless Neovim without the server: open $SYNTAX_FILE with the Vim files of editors/vim,
-- and write its filetype and the syntax group at each of $SYNTAX_PROBES (1-based line and
-- column pairs, JSON) to $SYNTAX_OUT as JSON.
vim.opt.runtimepath:prepend(vim.env.ROUTINE_ROOT .. "/editors/vim")
vim.cmd("filetype plugin on")
vim.cmd("syntax on")
vim.cmd("runtime! ftdetect/*.vim")
vim.cmd("edit " .. vim.fn.fnameescape(vim.env.SYNTAX_FILE))
local out = { filetype = vim.bo.filetype, syntax = {} }
for _, probe in ipairs(vim.json.decode(vim.env.SYNTAX_PROBES)) do
  local id = vim.fn.synID(probe[1], probe[2], 1)
  table.insert(out.syntax, vim.fn.synIDattr(id, "name"))
end
local file = io.open(vim.env.SYNTAX_OUT, "w")
file:write(vim.json.encode(out))
file:close()
vim.cmd("qa!")
