// Starts `rulebook lsp` for .rules files and connects VS Code to it over stdio.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  const [command, ...args] = vscode.workspace.getConfiguration("rulebook").get("command")
    .map((part) => part.replace("${workspaceFolder}", folder));
  client = new LanguageClient(
    "rulebook", "Rules language server",
    { command, args, options: { cwd: folder } },
    { documentSelector: [{ scheme: "file", language: "rules" }] },
  );
  return client.start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
