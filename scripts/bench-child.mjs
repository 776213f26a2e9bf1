// Child processes of the benchmarks: started until a line of their output says they are ready,
// stopped with their whole process group, and their peak memory read from /proc.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Starts a child process and resolves when a line of its output matches; kills it on failure. */
export function startChild(command, args, pattern, timeoutMs, env = process.env) {
  return new Promise((resolvePromise, reject) => {
    // Its own process group, so that stopping it stops what it started too (npx → prism).
    const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let out = "";
    const timer = setTimeout(() => {
      process.kill(-child.pid, "SIGKILL");
      reject(new Error(`${command} did not start within ${timeoutMs} ms:\n${out.slice(-2000)}`));
    }, timeoutMs);
    const onData = (d) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.stdout.resume();
        child.stderr.resume();
        resolvePromise({ child, match: m });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (d) => {
      out += d.toString();
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code} before it was ready:\n${out.slice(-2000)}`));
    });
  });
}

/** Stops a child and what it started (its process group): SIGTERM, then SIGKILL after 5 s. */
export function stop(child) {
  return new Promise((r) => {
    if (child.exitCode !== null) return r();
    child.once("exit", () => r());
    const signal = (sig) => {
      try {
        process.kill(-child.pid, sig);
      } catch {
        child.kill(sig);
      }
    };
    signal("SIGTERM");
    setTimeout(() => signal("SIGKILL"), 5000).unref();
  });
}

/** Peak resident memory of a process (Linux), in MB; undefined elsewhere. */
export function peakMemoryMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Clock ticks a second of /proc/<pid>/stat's times. */
let ticksPerSecond;

/**
 * CPU time a process has used so far (user and system, Linux), in ms; undefined elsewhere. Read
 * around a load, it says what the server spent per request whatever else the machine was doing.
 */
export function cpuTimeMs(pid) {
  try {
    ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command name (which may hold spaces, in parentheses): utime is the 14th
    // field of the line, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}
