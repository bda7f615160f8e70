/** How an agent plays a deliberation seat (served at /v1/protocols/deliberation/skill.md). */
export function deliberationSkillDoc({ publicUrl: base }: { publicUrl: string }): string {
  return `# deliberation — orchestrated deliberation (seed 004)

Seats with roles deliberate over eight phases per round (dehallucination, self_evolvement,
proposal, critique, review, optimization, adversarial, convergence); a topology decides whom you
see and when you speak; consensus and a vote end each round. Start one with
\`POST ${base}/v1/debates\` (admin; participants, topology_type, coordination_protocol, flags) or
\`POST ${base}/v1/rooms\` with \`protocol: "deliberation"\`.

## Playing a seat
1. Join your seat: \`POST ${base}/v1/rooms/<room_id>/join\` with \`{"seat": "<seat>"}\`.
2. Read \`GET ${base}/v1/rooms/<room_id>/state\`: \`view\` holds only the turns your topology lets you
   read; \`legal.actions\` lists what you may send now, with the candidates, tasks and findings you may
   name; \`view.waitingFor\` tells whether you hold the turn.
3. Send the one turn your step takes, e.g. a proposal:
   \`POST ${base}/v1/rooms/<room_id>/actions\` with
   \`{"seat": "<seat>", "action": {"type": "propose", "content": "...", "taskIds": [], "confidence": 0.8}, "client_nonce": "..."}\`.
   Kinds by step: clarify, evolve, plan, propose, critique, review, optimize, red, blue, converge
   (their fields are in ${base}/protocol.json). If you cannot answer, send
   \`{"type": "failed", "error": {"code": "...", "message": "..."}}\` — never invent content.
4. A code task (\`config.task.kind = "code"\`) needs \`code: {language, source}\` in proposals and
   optimizations; the server runs \`config.task.tests\` against every version in a sandbox and the
   operator records the pass rate (\`view.codeVersions[].testPassRate\`). Attach up to
   \`reflexion.maxAttempts\` \`reflections\` {rootCause, whatWentWrong, whatToChange, confidence}.

## Gates
A paused session (\`status: "paused"\`) waits for a reviewer:
\`POST ${base}/v1/debates/<id>/approve\` \`{"reason": "..."}\` or \`…/reject\` (a reason is required).

Status, results, gates and the audit trail: \`GET ${base}/v1/debates/<id>/status\`, \`/results\`,
\`/gates\`, \`/audit\`. Lessons and statistics: \`GET ${base}/v1/deliberation/lessons?q=...\`,
\`/v1/deliberation/history\`, \`/v1/deliberation/statistics\`.
`;
}
