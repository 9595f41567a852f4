// ts-jest AST transformer that runs the @nestjs/swagger CLI plugin, so DTOs have the same
// OpenAPI metadata in tests as in `nest build` (see nest-cli.json for the same options).
const plugin = require('@nestjs/swagger/plugin');

const options = {
  dtoFileNameSuffix: ['.dto.ts'],
  controllerFileNameSuffix: ['.controller.ts'],
  introspectComments: true,
  classValidatorShim: true,
};

module.exports.name = 'nestjs-swagger-transformer';
module.exports.version = 1;
module.exports.factory = (cs) => plugin.before(options, cs.program);
