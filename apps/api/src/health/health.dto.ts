export class HealthDto {
  status: 'ok';
}

export class ReadinessDto {
  status: 'ok';
  database: 'ok';
}
