import { operations as op } from "../spec/generated/operations.js";
import type * as T from "../spec/generated/types.js";
import type { RequestOptions, Transport } from "./transport.js";

/** Labor: break types, shifts, wages and workweek configs. */
export function laborApi(t: Transport) {
  return {
    /** Lists break types, optionally of one location. */
    listBreakTypes: (query: { location_id?: string; limit?: number } = {}, o?: RequestOptions) =>
      t.page<T.ListBreakTypesResponse, T.BreakType>(op.ListBreakTypes, { query }, (p) => p.break_types, o),
    /** Creates a break type (at most 3 per location). */
    createBreakType: (body: T.CreateBreakTypeRequest, o?: RequestOptions) =>
      t.call<T.CreateBreakTypeResponse>(op.CreateBreakType, { body }, o),
    /** Deletes a break type; shifts that refer to it keep their breaks. */
    deleteBreakType: (id: string, o?: RequestOptions) =>
      t.call<T.DeleteBreakTypeResponse>(op.DeleteBreakType, { path: { id } }, o),
    /** Returns one break type. */
    getBreakType: (id: string, o?: RequestOptions) =>
      t.call<T.GetBreakTypeResponse>(op.GetBreakType, { path: { id } }, o),
    /** Updates a break type; a stale `version` fails. */
    updateBreakType: (id: string, body: T.UpdateBreakTypeRequest, o?: RequestOptions) =>
      t.call<T.UpdateBreakTypeResponse>(op.UpdateBreakType, { path: { id }, body }, o),
    /** @deprecated Use {@link listTeamMemberWages}. Lists employee wages. */
    listEmployeeWages: (query: { employee_id?: string; limit?: number } = {}, o?: RequestOptions) =>
      t.page<T.ListEmployeeWagesResponse, T.EmployeeWage>(op.ListEmployeeWages, { query }, (p) => p.employee_wages, o),
    /** @deprecated Use {@link getTeamMemberWage}. Returns one employee wage. */
    getEmployeeWage: (id: string, o?: RequestOptions) =>
      t.call<T.GetEmployeeWageResponse>(op.GetEmployeeWage, { path: { id } }, o),
    /** Creates a shift (clock in). */
    createShift: (body: T.CreateShiftRequest, o?: RequestOptions) =>
      t.call<T.CreateShiftResponse>(op.CreateShift, { body }, o),
    /** Searches shifts by location, member, status, time ranges and workday. */
    searchShifts: (body: T.SearchShiftsRequest = {}, o?: RequestOptions) =>
      t.page<T.SearchShiftsResponse, T.Shift>(op.SearchShifts, { body }, (p) => p.shifts, o),
    /** Deletes a shift. */
    deleteShift: (id: string, o?: RequestOptions) => t.call<T.DeleteShiftResponse>(op.DeleteShift, { path: { id } }, o),
    /** Returns one shift. */
    getShift: (id: string, o?: RequestOptions) => t.call<T.GetShiftResponse>(op.GetShift, { path: { id } }, o),
    /** Updates a shift (breaks, end, wage); a stale `version` fails. */
    updateShift: (id: string, body: T.UpdateShiftRequest, o?: RequestOptions) =>
      t.call<T.UpdateShiftResponse>(op.UpdateShift, { path: { id }, body }, o),
    /** Lists team member wages, optionally of one member. */
    listTeamMemberWages: (query: { team_member_id?: string; limit?: number } = {}, o?: RequestOptions) =>
      t.page<T.ListTeamMemberWagesResponse, T.TeamMemberWage>(
        op.ListTeamMemberWages,
        { query },
        (p) => p.team_member_wages,
        o,
      ),
    /** Returns one team member wage. */
    getTeamMemberWage: (id: string, o?: RequestOptions) =>
      t.call<T.GetTeamMemberWageResponse>(op.GetTeamMemberWage, { path: { id } }, o),
    /** Lists workweek configs (one per seller). */
    listWorkweekConfigs: (query: { limit?: number } = {}, o?: RequestOptions) =>
      t.page<T.ListWorkweekConfigsResponse, T.WorkweekConfig>(
        op.ListWorkweekConfigs,
        { query },
        (p) => p.workweek_configs,
        o,
      ),
    /** Updates the workweek config; a stale `version` fails. */
    updateWorkweekConfig: (id: string, body: T.UpdateWorkweekConfigRequest, o?: RequestOptions) =>
      t.call<T.UpdateWorkweekConfigResponse>(op.UpdateWorkweekConfig, { path: { id }, body }, o),
  };
}
