import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

const MEMOIZED = Symbol.for('quire.validationMetadataMemo');

/**
 * class-validator finds a DTO's rules on every validation by walking the metadata of every decorated class (an
 * `instanceof` each, for inherited rules): ~2 % of the CPU of `GET /v1/spaces/{id}`, whose query DTO is validated on
 * every request (docs/benchmarks.md). A class's rules do not change once its module has loaded, so the lookup is
 * memoized per (class, schema, options); metadata added later (a class decorated after the first validations) clears
 * the memo. Once per process: the storage is class-validator's global singleton.
 */
export function memoizeValidationMetadata(): void {
  const storage = getMetadataStorage() as ReturnType<typeof getMetadataStorage> & { [MEMOIZED]?: true };
  if (storage[MEMOIZED]) return;
  storage[MEMOIZED] = true;
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let memo = new WeakMap<object, Map<string, ValidationMetadata[]>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${(groups ?? []).join('\u0000')}`;
    let byKey = memo.get(target);
    if (!byKey) memo.set(target, (byKey = new Map<string, ValidationMetadata[]>()));
    let rules = byKey.get(key);
    if (!rules) byKey.set(key, (rules = lookup(target, schema, always, strictGroups, groups)));
    return rules;
  };
  storage.addValidationMetadata = (metadata: ValidationMetadata) => {
    memo = new WeakMap();
    add(metadata);
  };
}
