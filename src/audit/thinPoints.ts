/**
 * A long series cut down for drawing: a 90-day history kept every minute is 130,000 points per
 * token, far more than a chart 1,400 pixels wide can show and too many to carry in a page. Each run
 * of consecutive points keeps its lowest and its highest (in time order), so a spike or a drop still
 * shows; the first and the last point are always kept. The points kept are exact, only fewer.
 */
export function thinPoints<T>(points: readonly T[], max: number, value: (point: T) => number): T[] {
  if (points.length <= max || max < 4) return [...points];
  const size = Math.ceil((points.length - 2) / Math.floor((max - 2) / 2));
  const out: T[] = [points[0] as T];
  for (let start = 1; start < points.length - 1; start += size) {
    const end = Math.min(start + size, points.length - 1);
    let low = start;
    let high = start;
    for (let i = start + 1; i < end; i++) {
      if (value(points[i] as T) < value(points[low] as T)) low = i;
      if (value(points[i] as T) > value(points[high] as T)) high = i;
    }
    if (low === high) out.push(points[low] as T);
    else for (const i of low < high ? [low, high] : [high, low]) out.push(points[i] as T);
  }
  out.push(points[points.length - 1] as T);
  return out;
}
