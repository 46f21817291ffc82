/** A short, line-per-difference diff of two JSON-like values, for failure messages. */
export function stateDiff(expected: unknown, actual: unknown, path = '$', out: string[] = [], limit = 40): string[] {
  if (out.length >= limit) return out;
  if (JSON.stringify(expected) === JSON.stringify(actual)) return out;
  const bothArrays = Array.isArray(expected) && Array.isArray(actual);
  const bothObjects =
    !bothArrays &&
    typeof expected === 'object' &&
    expected !== null &&
    typeof actual === 'object' &&
    actual !== null &&
    !Array.isArray(expected) &&
    !Array.isArray(actual);
  if (bothArrays) {
    const [a, b] = [expected as unknown[], actual as unknown[]];
    if (a.length !== b.length) {
      // Sorted canonical lists: show what is only on one side rather than a shifted index-by-index diff.
      const left = new Set(a.map((x) => JSON.stringify(x)));
      const right = new Set(b.map((x) => JSON.stringify(x)));
      out.push(`${path}: ${a.length} item(s) fault-free, ${b.length} with faults`);
      for (const x of left) if (!right.has(x) && out.length < limit) out.push(`  - only fault-free: ${x}`);
      for (const x of right) if (!left.has(x) && out.length < limit) out.push(`  + only with faults: ${x}`);
      return out;
    }
    a.forEach((x, i) => stateDiff(x, b[i], `${path}[${i}]`, out, limit));
    return out;
  }
  if (bothObjects) {
    const [a, b] = [expected as Record<string, unknown>, actual as Record<string, unknown>];
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) stateDiff(a[key], b[key], `${path}.${key}`, out, limit);
    return out;
  }
  out.push(`${path}: fault-free ${JSON.stringify(expected)}, with faults ${JSON.stringify(actual)}`);
  return out;
}
