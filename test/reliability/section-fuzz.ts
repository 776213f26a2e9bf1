import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { runFuzz } from "./fuzz.js";
import { atLeast, atMost, exactly, type Figure, info, type Section } from "./section.js";
import { startServe } from "./serve-process.js";

/** Growth of the service's resident memory over the run that still counts as flat. */
const RSS_GROWTH_MB = 48;

/** The spec-driven fuzzer against `backroom serve` in its own process (so a crash is seen). */
export const fuzzSection: Section = {
  name: "fuzz",
  title: "Fuzzing every route with generated and mutated requests",
  async run(ctx) {
    const cases = ctx.mode === "full" ? 20_000 : 400;
    const token = `EAAAfuzz${randomBytes(12).toString("hex")}`;
    const secret = `sq0csp-fuzz${randomBytes(12).toString("hex")}`;
    const serve = await startServe(ctx.cli, [
      "--port",
      "0",
      "--db",
      join(ctx.tmp, "fuzz.db"),
      "--access-token",
      token,
      "--client-secret",
      secret,
    ]);
    try {
      const report = await runFuzz({
        url: serve.url,
        token,
        clientId: "sq0idp-backroom-local",
        clientSecret: secret,
        seed: ctx.seed,
        cases,
        rss: serve.rss,
        alive: serve.alive,
        onProgress: (n) => ctx.log(`fuzz: ${n} of ${cases}`),
      });
      for (const f of report.failures.slice(0, 20)) {
        ctx.log(`fuzz ${f.kind}: case ${f.n} ${f.op} (${f.mutation}) → ${f.status ?? "-"} ${f.detail.slice(0, 160)}`);
        ctx.log(`  ${f.curl.slice(0, 2000)}`);
      }
      const figures: Figure[] = [
        atLeast("cases", report.cases, cases),
        exactly("routes covered (of 83)", report.routes, 83),
        exactly("5xx answers", report.serverErrors),
        exactly("crashes", serve.alive() ? 0 : 1),
        exactly("hangs (no answer in 15 s)", report.hangs),
        exactly("dropped connections", report.dropped),
        exactly("refusals outside the envelope or with an unknown category/code", report.badEnvelopes),
        exactly(`accepted-invalid (of ${report.invalid} invalid cases)`, report.acceptedInvalid),
        info(
          "answers by status",
          Object.entries(report.byStatus)
            .map(([s, n]) => `${s}: ${n}`)
            .join(", "),
        ),
        info("seed, duration", `${report.seed}, ${report.seconds.toFixed(1)} s`),
      ];
      if (report.rssWarmMb !== undefined && report.rssEndMb !== undefined) {
        figures.push(
          info("service RSS after warm-up → end", `${report.rssWarmMb.toFixed(0)} → ${report.rssEndMb.toFixed(0)} MB`),
        );
        figures.push(atMost("service RSS growth", report.rssEndMb - report.rssWarmMb, RSS_GROWTH_MB, " MB"));
      } else {
        figures.push(info("service RSS", "not measured (no /proc on this system)"));
      }
      return figures;
    } finally {
      await serve.kill("SIGTERM");
    }
  },
};
