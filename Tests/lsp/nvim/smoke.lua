-- A headless Neovim session with the built-in LSP client (Neovim 0.7+): open a routine
-- with a typo, wait for the server's diagnostic, apply its quick fix, wait for the
-- diagnostics to clear, and read the syntax groups of the Vim syntax file. Writes what it
-- saw as JSON to $SMOKE_OUT; the Python test checks it.
local root = vim.env.ROUTINE_ROOT
local out = {}
vim.opt.runtimepath:prepend(root .. "/editors/vim")
vim.cmd("filetype plugin on")
vim.cmd("syntax on")
vim.cmd("runtime! ftdetect/routine.vim")
vim.cmd("edit " .. vim.fn.fnameescape(vim.env.SMOKE_FILE))
out.filetype = vim.bo.filetype

local client = vim.lsp.start_client({
  name = "routine",
  cmd = { vim.env.ROUTINE, "lsp" },
  root_dir = vim.fn.fnamemodify(vim.env.SMOKE_FILE, ":h"),
})
vim.lsp.buf_attach_client(0, client)

out.ready = vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 20)
local first = vim.diagnostic.get(0, { severity = vim.diagnostic.severity.ERROR })[1] or {}
out.diagnostic = { lnum = first.lnum, col = first.col, message = first.message, source = first.source,
  code = first.code or (first.user_data and first.user_data.lsp and first.user_data.lsp.code) }

-- The quick fix, as ':lua vim.lsp.buf.code_action()' would offer it.
local params = vim.lsp.util.make_range_params()
params.range = { start = { line = first.lnum, character = 0 }, ["end"] = { line = first.lnum, character = 200 } }
params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(0, first.lnum), only = { "quickfix" } }
local answers = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, 10000) or {}
local action
for _, answer in pairs(answers) do action = (answer.result or {})[1] end
out.action = action and action.title
if action then
  vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
  out.fixed_line = vim.api.nvim_buf_get_lines(0, first.lnum, first.lnum + 1, false)[1]
  out.cleared = vim.wait(15000, function()
    return #vim.diagnostic.get(0, { severity = vim.diagnostic.severity.ERROR }) == 0
  end, 20)
end

-- Highlight groups at (line, column), both 1-based.
local function group(line, col) return vim.fn.synIDattr(vim.fn.synID(line, col, 1), "name") end
out.syntax = {}
for _, probe in ipairs(vim.fn.json_decode(vim.env.SMOKE_PROBES)) do
  out.syntax[#out.syntax + 1] = group(probe[1], probe[2])
end

vim.lsp.stop_client(client)
local file = io.open(vim.env.SMOKE_OUT, "w")
file:write(vim.fn.json_encode(out))
file:close()
vim.cmd("qall!")
