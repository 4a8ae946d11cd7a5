// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { VirtualLayout } from './virtual-layout';

const keys = (n: number, prefix = 'k') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('VirtualLayout', () => {
  it('uses the estimate until rows are measured', () => {
    const layout = new VirtualLayout(50);
    layout.setKeys(keys(10));
    expect(layout.totalHeight()).toBe(500);
    expect(layout.offsetOf(3)).toBe(150);
  });

  it('moves every later offset when a row is measured', () => {
    const layout = new VirtualLayout(50);
    layout.setKeys(keys(10));
    expect(layout.setHeight(2, 80)).toBe(30);
    expect(layout.setHeight(2, 80)).toBe(0);
    expect(layout.offsetOf(2)).toBe(100);
    expect(layout.offsetOf(3)).toBe(180);
    expect(layout.totalHeight()).toBe(530);
  });

  it('finds the rows of a viewport with overscan, clamped to the list', () => {
    const layout = new VirtualLayout(100);
    layout.setKeys(keys(5000));
    expect(layout.range(0, 300, 2)).toEqual({ start: 0, end: 6 });
    expect(layout.range(250_000, 300, 2)).toEqual({ start: 2498, end: 2506 });
    expect(layout.range(10_000_000, 300, 2)).toEqual({ start: 4997, end: 5000 });
    expect(new VirtualLayout(10).range(0, 100, 2)).toEqual({ start: 0, end: 0 });
  });

  it('keeps measured heights by key when rows are appended or the list is replaced', () => {
    const layout = new VirtualLayout(50);
    const first = keys(3);
    layout.setKeys(first);
    layout.setHeight(1, 200);
    layout.setKeys([...first, 'k3']);
    expect(layout.totalHeight()).toBe(50 + 200 + 50 + 50);
    layout.setKeys(['k1', 'x']);
    expect(layout.offsetOf(1)).toBe(200);
    expect(layout.totalHeight()).toBe(250);
  });

  it('stays fast on a long list measured row by row', () => {
    const layout = new VirtualLayout(60);
    layout.setKeys(keys(5000));
    const start = performance.now();
    for (let i = 2000; i < 2040; i++) {
      layout.setHeight(i, 90);
      layout.range(i * 60, 800, 6);
    }
    expect(performance.now() - start).toBeLessThan(1000);
    expect(layout.totalHeight()).toBe(5000 * 60 + 40 * 30);
  });
});
