#!/usr/bin/env python3
"""Puts each perf sample of an index rebuild in one bucket, by its thread and stack.

Reads `perf script -F comm,tid,ip,sym,dso` output (profile-index-build.sh writes it beside its report):
the garbage collector's and the JIT's threads by name; on the runner's prepare side, reading documents,
parsing their JSON, or extracting fields / mapping entries; on the commit side, a map/reduce index's rows
engine index, its reduce store, or a static index's search engine; then the storage flusher and the rest.
"""
import collections
import re
import sys


def method(frame):
    frame = re.sub(r'\[[A-Za-z0-9]+\]', '', frame)  # the JIT tier: [OptimizedTier1], [QuickJitted], ...
    match = re.search(r'([\w.`+<>]+::[\w.`<>|]+)\(', frame)
    return match.group(1) if match else ''


def bucket(thread, stack):
    if 'GC' in thread:
        return 'GC threads'
    if 'Tiered Com' in thread:
        return 'JIT (tiered compilation)'
    if 'IndexRunner::Prepare' in stack:
        if 'DocumentChangeReader' in stack or 'DocumentReader' in stack:
            return 'prepare: reading documents'
        if 'JsonDocument::Parse' in stack:
            return 'prepare: parsing JSON'
        return 'prepare: extracting fields / mapping entries'
    if 'MapReduceProcessor::Commit' in stack:
        if 'MapReduceProcessor::AddRow' in stack or 'Search.IndexBatch::' in stack:
            return "commit: the rows' engine index"
        return 'commit: the reduce store'
    if 'Search.IndexBatch::' in stack or 'MapIndexBatch::Commit' in stack:
        return "commit: the search engine's index"
    if 'FlusherLoop' in stack or 'FlushToDataFile' in stack:
        return 'storage flusher'
    return 'other'


def main(path):
    buckets = collections.Counter()
    thread, frames = None, []

    def flush():
        if thread is not None and frames:
            buckets[bucket(thread, ' '.join(method(f) for f in frames))] += 1

    with open(path, errors='replace') as lines:
        for line in lines:
            if not line.strip():
                continue
            if not line.startswith('\t'):
                flush()
                thread, frames = line.rsplit(' ', 2)[0].strip(), []
                continue
            match = re.match(r'\s*[0-9a-f]+ (.*) \(.*\)$', line.rstrip())
            if match:
                frames.append(match.group(1))
    flush()
    total = sum(buckets.values())
    print(f'{total} samples')
    for name, count in buckets.most_common():
        print(f'{count:8d} {100 * count / total:5.1f}%  {name}')


if __name__ == '__main__':
    main(sys.argv[1])
