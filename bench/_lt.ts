import { readFileSync } from 'node:fs';
import { localTile, localPartition } from '../src/atoms/partition.js';
import { parseLayoutFunction } from '../src/cute/composed.js';
import { parseTiler } from '../src/cute/tiler.js';
import { parseSliceCoord } from '../src/cute/slice.js';
import { parseLayout } from '../src/algebra/notation.js';
const rows = readFileSync('bench/corpus/atoms.jsonl','utf8').split('\n').filter(Boolean).map((l)=>JSON.parse(l));
const lt = rows.filter((r:any)=>r.op==='local_tile').map((r:any)=>{ const t=parseLayoutFunction(r.args[0]); const ti=parseTiler(r.args[1]); const c=parseSliceCoord(r.args[2]); return ()=>localTile(t,ti,c); });
const lp = rows.filter((r:any)=>r.op==='local_partition').map((r:any)=>{ const t=parseLayoutFunction(r.args[0]); const th=parseLayout(r.args[1]); return ()=>localPartition(t,th,r.args[2]); });
for (const [name, fs] of [['local_tile', lt], ['local_partition', lp]] as const) {
  for (let w=0; w<3; w++) for (const f of fs) f();
  let n=0; const t0=performance.now(); while (performance.now()-t0 < 1500) { for (const f of fs) f(); n+=fs.length; } console.log(name, (n/1.5).toFixed(0),'/s');
}
