/** Where a windowed list is: the selected row and the first row shown. */
export interface ListState {
  cursor: number;
  offset: number;
}

/** What can happen to a list; `count` and `height` travel with each action so the reducer stays pure. */
export type ListAction =
  | { type: "move"; delta: number; count: number; height: number }
  | { type: "page"; direction: 1 | -1; count: number; height: number }
  | { type: "top"; count: number; height: number }
  | { type: "bottom"; count: number; height: number }
  | { type: "select"; index: number; count: number; height: number }
  | { type: "fit"; count: number; height: number };

/** The initial list state. */
export const initialList: ListState = { cursor: 0, offset: 0 };

/** Keeps the cursor inside the rows and the window around the cursor. */
export function fitList(state: ListState, count: number, height: number): ListState {
  const h = Math.max(1, height);
  if (count <= 0) return state.cursor === 0 && state.offset === 0 ? state : initialList;
  const cursor = Math.min(Math.max(0, state.cursor), count - 1);
  let offset = Math.min(Math.max(0, state.offset), Math.max(0, count - h));
  if (cursor < offset) offset = cursor;
  if (cursor >= offset + h) offset = cursor - h + 1;
  return cursor === state.cursor && offset === state.offset ? state : { cursor, offset };
}

/** The reducer of a windowed list. */
export function listReducer(state: ListState, action: ListAction): ListState {
  switch (action.type) {
    case "move":
      return fitList({ ...state, cursor: state.cursor + action.delta }, action.count, action.height);
    case "page":
      return fitList(
        {
          cursor: state.cursor + action.direction * action.height,
          offset: state.offset + action.direction * action.height,
        },
        action.count,
        action.height,
      );
    case "top":
      return fitList({ cursor: 0, offset: 0 }, action.count, action.height);
    case "bottom":
      return fitList({ cursor: action.count - 1, offset: action.count }, action.count, action.height);
    case "select":
      return fitList({ ...state, cursor: action.index }, action.count, action.height);
    case "fit":
      return fitList(state, action.count, action.height);
  }
}

/** The rows to render: only those inside the window. */
export function visibleRange(state: ListState, count: number, height: number): { start: number; end: number } {
  const fitted = fitList(state, count, height);
  return { start: fitted.offset, end: Math.min(count, fitted.offset + Math.max(1, height)) };
}

/** The list action a list command asks for (up, down, pages, top, bottom), or undefined for any other command. */
export function listActionOf(command: string, count: number, height: number): ListAction | undefined {
  const size = { count, height };
  switch (command) {
    case "up":
      return { type: "move", delta: -1, ...size };
    case "down":
      return { type: "move", delta: 1, ...size };
    case "pageUp":
      return { type: "page", direction: -1, ...size };
    case "pageDown":
      return { type: "page", direction: 1, ...size };
    case "top":
      return { type: "top", ...size };
    case "bottom":
      return { type: "bottom", ...size };
    default:
      return undefined;
  }
}
