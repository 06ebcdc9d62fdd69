-- Neovim as the client of streamsafe-py --lsp (test/python/lsp-neovim.test),
-- headless: its own LSP client starts the server on the Python buffer,
-- the diagnostics it shows are written to $OUT (1-based lines and columns,
-- as the editor shows them, with the related notes); then a line with the
-- fix is typed in and the diagnostics after the change are written too.
local out = assert(io.open(os.getenv("OUT"), "w"))
local server = os.getenv("STREAMSAFE_PY")

vim.api.nvim_create_autocmd("FileType", {
  pattern = "python",
  callback = function(args)
    local id = vim.lsp.start_client({
      name = "streamsafe-py",
      cmd = { server, "--lsp" },
      root_dir = vim.fn.getcwd(),
    })
    vim.lsp.buf_attach_client(args.buf, id)
  end,
})

local function write(label, buf)
  local diags = vim.diagnostic.get(buf)
  table.sort(diags, function(a, b)
    if a.lnum ~= b.lnum then return a.lnum < b.lnum end
    return tostring(a.code) < tostring(b.code)
  end)
  out:write(string.format("%s: %d diagnostics\n", label, #diags))
  for _, d in ipairs(diags) do
    out:write(string.format("%d:%d: %s [%s]\n", d.lnum + 1, d.col + 1,
      d.message, tostring(d.code)))
    local lsp = d.user_data and d.user_data.lsp or {}
    for _, r in ipairs(lsp.relatedInformation or {}) do
      out:write(string.format("  %d:%d: note: %s\n",
        r.location.range.start.line + 1, r.location.range.start.character + 1,
        r.message))
    end
  end
end

vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    local buf = vim.api.nvim_get_current_buf()
    if not vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 20) then
      out:write("timeout: no diagnostics\n")
    end
    write("opened", buf)
    local before = #vim.diagnostic.get(buf)
    -- The fix, typed above the `with` (line 14): the side stream waits.
    vim.api.nvim_buf_set_lines(buf, 13, 13, false,
      { "    side.wait_stream(torch.cuda.current_stream())" })
    if not vim.wait(20000, function() return #vim.diagnostic.get(buf) ~= before end, 20) then
      out:write("timeout: the diagnostics did not change\n")
    end
    write("typed the wait", buf)
    out:close()
    for _, c in ipairs(vim.lsp.get_active_clients()) do c.stop() end
    vim.wait(5000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
    vim.cmd("qa!")
  end,
})
