import { jest } from '@jest/globals';
import { getMetadataStorage, IsInt, IsString, registerDecorator, validateSync } from 'class-validator';
import { memoizeValidationMetadata } from './validation-metadata-memo';

describe('memoized class-validator metadata lookup', () => {
  class Base {
    @IsString() name!: unknown;
  }
  class Child extends Base {
    @IsInt() count!: unknown;
  }

  it('validates as before (own and inherited rules), looking a class up once', () => {
    memoizeValidationMetadata();
    memoizeValidationMetadata(); // once per process
    const child = Object.assign(new Child(), { name: 1, count: 'x' });
    expect(
      validateSync(child)
        .map((e) => e.property)
        .sort(),
    ).toEqual(['count', 'name']);
    const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, unknown> };
    const scan = jest.spyOn(storage.validationMetadatas, 'entries');
    expect(validateSync(Object.assign(new Child(), { name: 'ok', count: 2 }))).toEqual([]);
    expect(validateSync(Object.assign(new Child(), { name: 2, count: 2 })).map((e) => e.property)).toEqual(['name']);
    expect(scan).not.toHaveBeenCalled();
    scan.mockRestore();
  });

  it('sees rules added after a class was first validated', () => {
    memoizeValidationMetadata();
    class Late {
      value!: unknown;
    }
    expect(validateSync(Object.assign(new Late(), { value: 'x' }), { forbidUnknownValues: false })).toEqual([]);
    registerDecorator({ target: Late, propertyName: 'value', validator: { validate: (v: unknown) => typeof v === 'number' } });
    expect(validateSync(Object.assign(new Late(), { value: 'x' })).map((e) => e.property)).toEqual(['value']);
  });
});
