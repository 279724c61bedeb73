// Durations as the picker shows them: m:ss, or m:ss.t where tenths matter (trimming).
export function clock(seconds, { tenths = false } = {}) {
  const units = tenths ? Math.round(seconds * 10) : Math.round(seconds);
  const whole = tenths ? Math.floor(units / 10) : units;
  const text = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  return tenths ? `${text}.${units % 10}` : text;
}
