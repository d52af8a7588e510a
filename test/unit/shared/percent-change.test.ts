import { describe, expect, it } from "vitest";
import { percentChange, percentChangeText } from "../../../src/shared/percent-change.js";

describe("percentChange", () => {
  it("rounds the change to whole percent, either way", () => {
    expect(percentChange(200, 250)).toBe(25);
    expect(percentChange(3, 2)).toBe(-33);
    expect(percentChange(7, 7)).toBe(0);
  });

  it("has no percentage of nothing", () => {
    expect(percentChange(0, 5)).toBeNull();
    expect(percentChange(0, 0)).toBeNull();
  });
});

describe("percentChangeText", () => {
  it("signs a rise and a fall, and not an even result", () => {
    expect(percentChangeText(200, 250)).toBe("+25%");
    expect(percentChangeText(3, 2)).toBe("-33%");
    expect(percentChangeText(7, 7)).toBe("0%");
  });

  it("calls something from nothing new, and nothing on either side nothing", () => {
    expect(percentChangeText(0, 4)).toBe("new");
    expect(percentChangeText(0, 0)).toBeNull();
  });
});
