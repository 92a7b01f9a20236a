// A live board's stones as both live pages draw them (the game room, live.js; every board of a
// round, live-round.js) on the server's SVG board (weiqi.server.board, R-BOARD-3): the circle
// of a stone and the ring on the last move, sized by the board's cell width.
//
//   import { COLUMNS, lastMoveAttrs, stoneAttrs } from "./live-board.js";
//   stoneAttrs("B", 20)            // {class: "stone black", fill: "#111111", r: 9.6}
//   stoneAttrs("W", 20, "dead")    // a white stone, also of class "dead"
//   lastMoveAttrs("B", 20)         // the ring on Black's last stone, drawn white

// The board's column letters (no I), as the server writes a vertex ("D4").
export const COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

// The attributes of a ``color`` ("B" or "W") stone's circle; ``extra``: more classes.
export function stoneAttrs(color, cw, extra = "") {
  const r = 0.48 * cw;
  if (color === "B") return { class: `stone black ${extra}`.trim(), fill: "#111111", r };
  return {
    class: `stone white ${extra}`.trim(), fill: "#ffffff", stroke: "#000000",
    "stroke-width": 0.045 * cw, r,
  };
}

// The attributes of the ring on the last move, a stone of ``color``: of the other colour.
export function lastMoveAttrs(color, cw) {
  return {
    class: "last-move", fill: "none", r: 0.22 * cw, "stroke-width": 0.07 * cw,
    stroke: color === "B" ? "#ffffff" : "#111111",
  };
}
