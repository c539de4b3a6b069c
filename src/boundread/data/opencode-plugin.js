// boundread's guard for opencode: written by `boundread init --agent opencode`, removed whole by
// `boundread init --agent opencode --uninstall` (edit it and init writes it again). Before every tool call it asks
// `boundread guard-check` (stdin: the call as JSON; stdout: the answer): a refused call throws, so the model gets
// the reason; a bounded read instead rewrites the call's args in place; a guard that cannot answer lets it through.
import { spawn } from "node:child_process"

const COMMAND = __COMMAND__
const TIMEOUT_MS = 30000
const notes = new Map()

function ask(payload) {
  return new Promise((resolve) => {
    let out = ""
    let child
    try {
      child = spawn(COMMAND, { shell: true, stdio: ["pipe", "pipe", "ignore"] })
    } catch {
      return resolve(null)
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS)
    child.stdout.on("data", (chunk) => { out += chunk })
    child.on("error", () => { clearTimeout(timer); resolve(null) })
    child.on("close", (code) => {
      clearTimeout(timer)
      try { resolve(code === 0 ? JSON.parse(out) : null) } catch { resolve(null) }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

export const BoundreadGuard = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const answer = await ask({ hook_event_name: "tool.execute.before", client: "opencode", tool: input.tool,
                               cwd: directory, session_id: input.sessionID, call_id: input.callID,
                               args: output.args })
    if (!answer) return
    if (answer.decision === "deny") throw new Error(answer.reason)
    if (answer.args && typeof answer.args === "object") {
      for (const key of Object.keys(output.args)) if (!(key in answer.args)) delete output.args[key]
      Object.assign(output.args, answer.args)
      if (answer.context) notes.set(input.callID, answer.context)
    }
  },
  "tool.execute.after": async (input, output) => {
    const note = notes.get(input.callID)
    if (note === undefined) return
    notes.delete(input.callID)
    if (output && typeof output.output === "string") output.output += "\n\n" + note
  },
})
