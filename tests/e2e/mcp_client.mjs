// End-to-end check of the Layout Assistant MCP server with the official
// TypeScript MCP SDK (a client that is not ours), over stdio.
//
// Usage:
//   node tests/e2e/mcp_client.mjs --workspace DIR --flyer FILE.svg -- COMMAND [ARGS...]
// e.g.
//   node tests/e2e/mcp_client.mjs --workspace /tmp/ws --flyer gdal_a4.svg -- \
//        .venv/bin/layout-assistant serve --workspace /tmp/ws
//
// It lists the tools, opens the flyer, reads its metrics, applies edits,
// undoes one, renders a preview and exports SVG and PNG. On success it prints
// one JSON summary line on stdout and exits 0; on any failed check it prints
// the reason on stderr and exits 1.

import { createHash } from "node:crypto";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const REQUIRED_TOOLS = [
  "open_document", "list_documents", "close_document", "get_outline", "find_elements",
  "inspect_elements", "get_layout_metrics", "apply_edits", "move_elements", "align_elements",
  "distribute_elements", "set_instruction", "undo", "redo", "get_history", "suggest_edits",
  "improve_layout", "render_preview", "export_document", "save_document",
];

function parseArgs(argv) {
  const sep = argv.indexOf("--");
  if (sep < 0 || sep === argv.length - 1) throw new Error("missing '-- COMMAND [ARGS...]'");
  const opts = {};
  const own = argv.slice(0, sep);
  for (let i = 0; i < own.length; i += 2) opts[own[i].replace(/^--/, "")] = own[i + 1];
  if (!opts.workspace || !opts.flyer) throw new Error("need --workspace DIR and --flyer FILE");
  return { ...opts, command: argv[sep + 1], args: argv.slice(sep + 2) };
}

function check(cond, message) {
  if (!cond) throw new Error(`check failed: ${message}`);
}

async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    const text = (result.content || []).map((c) => c.text || "").join(" ");
    throw new Error(`${name} failed: ${text}`);
  }
  return result;
}

function data(result) {
  if (result.structuredContent) {
    const sc = result.structuredContent;
    return sc.result !== undefined && Object.keys(sc).length === 1 ? sc.result : sc;
  }
  return JSON.parse(result.content[0].text);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const transport = new StdioClientTransport({
    command: opts.command, args: opts.args, stderr: "pipe",
    env: { ...process.env },
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => { stderr += chunk.toString(); });
  const client = new Client({ name: "layout-e2e", version: "1.0.0" });
  const summary = {};
  try {
    await client.connect(transport);
    summary.server = client.getServerVersion();
    check(typeof client.getInstructions() === "string" && client.getInstructions().length > 0,
      "server sends instructions");

    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of REQUIRED_TOOLS) check(names.includes(n), `tool ${n} is listed`);
    for (const t of tools) {
      check(t.annotations && typeof t.annotations.readOnlyHint === "boolean", `${t.name} has readOnlyHint`);
      check(t.annotations.openWorldHint === false, `${t.name} is closed-world`);
      check((t.title || t.annotations.title || "").length > 0, `${t.name} has a title`);
    }
    summary.tools = names.length;

    const opened = data(await call(client, "open_document", { path: opts.flyer }));
    check(typeof opened.doc_id === "string", "open_document returns a doc_id");
    check(opened.element_count > 0, "the flyer has elements");
    const docId = opened.doc_id;
    summary.doc_id = docId;
    summary.elements = opened.element_count;

    const metrics = data(await call(client, "get_layout_metrics", { doc_id: docId }));
    check(metrics.composite >= 0 && metrics.composite <= 1, "composite in [0, 1]");
    summary.composite_before = metrics.composite;

    const found = data(await call(client, "find_elements", {
      doc_id: docId, movable_only: true, limit: 10, region: opened.canvas.safe_box,
    }));
    const ids = found.elements.filter((e) => e.role !== "background").map((e) => e.id);
    check(ids.length >= 2, "at least two movable elements");
    const [a, b] = ids;

    const before = data(await call(client, "inspect_elements", { doc_id: docId, ids: [a] })).elements[0];
    const edited = data(await call(client, "apply_edits", {
      doc_id: docId, expected_revision: opened.revision,
      edits: [{ type: "move", ids: [a], dx: 6, dy: 0 }, { type: "move", ids: [b], dx: 0, dy: 4 }],
    }));
    check(edited.revision === opened.revision + 1, "one edit call is one revision");
    check(edited.edits.length === 2 && edited.edits[0].changed_ids.includes(a), "per-edit changed ids");
    const afterA = edited.edits[0].boxes[a];
    check(Math.abs(afterA.x - before.box.x - 6) < 1e-6, "box moved by dx");

    const stale = await client.callTool({
      name: "apply_edits",
      arguments: { doc_id: docId, expected_revision: opened.revision, edits: [{ type: "move", ids: [a], dx: 1, dy: 0 }] },
    });
    check(stale.isError === true, "stale expected_revision is an error");
    check(/revision/.test(stale.content[0].text), "stale revision message names the revision");

    const moved = data(await call(client, "move_elements", { doc_id: docId, ids: [b], dx: -3, dy: 0, expected_revision: edited.revision }));
    const undone = data(await call(client, "undo", { doc_id: docId }));
    check(undone.changed_ids.includes(b), "undo reverts the last edit call");
    const history = data(await call(client, "get_history", { doc_id: docId }));
    check(history.undoable === 1 && history.redoable === 1, "one edit call left to undo, one to redo");
    check(history.entries.map((e) => e.kind).join(",") === "edit,edit,undo", "history records edits and the undo");
    summary.revision_after_undo = undone.revision;
    summary.moved_revision = moved.revision;

    const preview = await call(client, "render_preview", { doc_id: docId, max_size: 768, overlays: ["boxes", "margins"] });
    const image = preview.content.find((c) => c.type === "image");
    check(image && image.mimeType === "image/png", "render_preview returns a PNG image");
    const png = Buffer.from(image.data, "base64");
    check(png.subarray(1, 4).toString() === "PNG", "PNG signature");
    check(png.length < 1024 * 1024, "preview under 1 MB");
    summary.preview_bytes = png.length;

    for (const format of ["svg", "png"]) {
      const out = `e2e-out.${format}`;
      const exp = data(await call(client, "export_document", { doc_id: docId, path: out, format }));
      const file = join(opts.workspace, out);
      check(existsSync(file), `${out} exists`);
      const bytes = readFileSync(file);
      check(bytes.length === exp.bytes, `${out} size matches`);
      check(createHash("sha256").update(bytes).digest("hex") === exp.sha256, `${out} sha256 matches`);
      summary[`export_${format}_bytes`] = bytes.length;
    }
    const again = await client.callTool({ name: "export_document", arguments: { doc_id: docId, path: "e2e-out.svg", format: "svg" } });
    check(again.isError === true && /overwrite/.test(again.content[0].text), "export never overwrites unless asked");

    const outside = await client.callTool({ name: "open_document", arguments: { path: "../outside.svg" } });
    check(outside.isError === true && /outside the workspace/.test(outside.content[0].text), "paths outside the workspace are refused");

    const docs = await client.readResource({ uri: "layout://documents" });
    check(docs.contents[0].text.includes(docId), "layout://documents lists the open document");
    const { prompts } = await client.listPrompts();
    for (const p of ["polish_layout", "fix_hierarchy", "prepare_for_print"]) {
      check(prompts.some((q) => q.name === p), `prompt ${p} is listed`);
    }
    await call(client, "close_document", { doc_id: docId });
    summary.ok = true;
    process.stdout.write(JSON.stringify(summary) + "\n");
  } catch (err) {
    process.stderr.write(`${err.stack || err}\n--- server stderr ---\n${stderr.slice(-4000)}\n`);
    process.exitCode = 1;
  } finally {
    await client.close().catch(() => {});
  }
}

main();
