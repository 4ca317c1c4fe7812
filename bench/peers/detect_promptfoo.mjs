// promptfoo's is-refusal assertion over recorded answers, through promptfoo's own library
// (assertions.runAssertion, the call its evaluator makes per assertion). Run by node:
//   node detect_promptfoo.mjs PROMPTFOO_INDEX_JS ANSWERS.jsonl
// Prints one JSON line: answers, CPU seconds of the assertion calls, refusals found by kind.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [index, answersPath] = process.argv.slice(2);
const { assertions } = await import(pathToFileURL(index).href);
const rows = readFileSync(answersPath, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const assertion = { type: "is-refusal" };
const test = { vars: {}, assert: [assertion] };
await assertions.runAssertion({ prompt: "", assertion, test, providerResponse: { output: "x" } });

const flagged = {};
const start = process.cpuUsage();
for (const row of rows) {
  const result = await assertions.runAssertion({
    prompt: "",
    assertion,
    test,
    providerResponse: { output: row.text },
  });
  if (result.pass) flagged[row.kind] = (flagged[row.kind] || 0) + 1;
}
const used = process.cpuUsage(start);
const cpu = (used.user + used.system) / 1e6;
console.log(JSON.stringify({ answers: rows.length, cpu_s: cpu, flagged }));
