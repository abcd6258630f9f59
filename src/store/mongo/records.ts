/**
 * The record reads and writes several collections of the MongoDB adapter share: one record by key, an insert,
 * and the update* patches (plain and conditional), written durably (./writes.ts).
 */
import type { Model, ProjectionType } from "mongoose";
import { copy } from "../shared";
import type { Doc } from "./models";
import { DURABLY, expectationFilter, INSERT_DURABLY, patchUpdate } from "./writes";

/** Never return Mongo's own _id: records are exactly the port's shapes. */
export const NO_ID = { _id: 0 } as const;

export async function findRecord<T>(model: Model<Doc>, filter: Doc, fields: ProjectionType<Doc> = NO_ID): Promise<T | null> {
  return (await model.findOne(filter, fields).lean<T>().exec()) ?? null;
}

export async function insertRecord(model: Model<Doc>, record: object): Promise<void> {
  // A copy: insertMany stamps an _id on the document it is given.
  await model.insertMany([copy(record) as Doc], INSERT_DURABLY);
}

export async function patchRecord(model: Model<Doc>, keyField: string, key: string, patch: object, stamp = true): Promise<void> {
  await model.updateOne({ [keyField]: key }, patchUpdate(patch, keyField, stamp), DURABLY).exec();
}

export async function patchRecordIf(model: Model<Doc>, keyField: string, key: string, expected: object, patch: object): Promise<boolean> {
  // The filter carries the expectation, so the server checks and writes in one atomic operation.
  return (await model.updateOne(expectationFilter(keyField, key, expected), patchUpdate(patch, keyField, true), DURABLY).exec()).matchedCount > 0;
}
