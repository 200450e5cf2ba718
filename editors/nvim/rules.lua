-- The rules language in Neovim (0.10 or later): `.rules` files get the
-- filetype `rules`, and each one opened starts (or joins) `rulebook lsp`.
vim.filetype.add({ extension = { rules = "rules" } })

vim.api.nvim_create_autocmd("FileType", {
  pattern = "rules",
  callback = function(args)
    vim.bo[args.buf].commentstring = "# %s"
    local root = vim.fs.root(args.buf, { "pyproject.toml", ".git" })
      or vim.fn.getcwd()
    local venv = root .. "/.venv/bin/rulebook"
    vim.lsp.start({
      name = "rulebook",
      cmd = { vim.fn.executable(venv) == 1 and venv or "rulebook", "lsp" },
      cmd_cwd = root,
      root_dir = root,
    })
  end,
})
