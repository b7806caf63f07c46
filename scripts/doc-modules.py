#!/usr/bin/env python3
"""Prints docs/architecture.md's "Every module" section from each Rust file's first //! sentence.

Usage: python3 scripts/doc-modules.py  (from the repository root; paste the output over the section)."""
import glob,re,os
groups=[('shared/domain/src','`domain` (`shared/domain/src`): the rules, the types that parse input, geo'),
        ('shared/telemetry/src','`telemetry` (`shared/telemetry/src`): logs, request ids, metrics'),
        ('shared/store/src','`store` (`shared/store/src`): DynamoDB, the configuration, demo data'),
        ('shared/web/src','`web` (`shared/web/src`): the HTTP edge every function is built on'),
        ('functions','`functions/`: one crate per Lambda'),
        ('tests/kit/src','`testkit` (`tests/kit/src`): test support'),
        ('tools/perf/src',"`perf-tools` (`tools/perf/src`): benchmarks and the load test's server"),
        ('tools/gateway/src',"`local-gateway` (`tools/gateway/src`): the local stack's API Gateway")]
out=['## Every module\n','Each Rust file with the first sentence of its own doc comment (`//!`);',
     '`tests/api/docs.rs` fails when a file is missing here (`scripts/doc-modules.py` prints this section again), so a new module is listed with its','purpose.\n']
for root,title in groups:
    files=sorted(glob.glob(root+'/**/*.rs',recursive=True))
    if root=='functions': files=sorted(f for f in files if '/src/' in f)
    out.append(f'### {title}\n')
    out.append('| file | what it holds |\n|---|---|')
    for f in files:
        doc=[]
        for l in open(f).read().split('\n'):
            if l.startswith('//!'):
                doc.append(l[3:].strip())
            elif doc: break
            elif l.strip()=='': continue
            else: break
        d=' '.join(doc).split('```')[0].strip()
        d=re.split(r'(?<=[.;])\s',d)[0] if d else ''
        d=d.rstrip(':;').strip()
        if len(d)>170: d=d[:167].rsplit(' ',1)[0]+' …'
        bar='\\|'
        out.append('| `'+f+'` | '+d.replace('|',bar)+' |')
    out.append('')
print('\n'.join(out))
