// The exact bytes the catalog serves and their ETags, computed once: the data is fixed per release.
import { ServiceError, strongEtag } from '@dss/platform';
import { contractText, DRIVERS, type Driver, dataTypeCatalogFor } from '@dss/schema';

export interface Representation {
  body: string;
  etag: string;
  content_type: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function representation(body: string): Representation {
  return { body, etag: strongEtag(body), content_type: JSON_TYPE };
}

export function buildRepresentations() {
  const byDriver = new Map<string, Representation>();
  byDriver.set('', representation(JSON.stringify({ data: dataTypeCatalogFor() })));
  for (const driver of DRIVERS)
    byDriver.set(driver, representation(JSON.stringify({ data: dataTypeCatalogFor(driver) })));
  const contract = representation(contractText);

  return {
    dataTypes(driver: string): Representation {
      const found = byDriver.get(driver);
      if (!found) {
        throw new ServiceError(
          'invalid_request',
          `driver must be one of ${DRIVERS.join(', ')}, got "${driver}"`,
          {
            errors: [{ path: 'driver', message: `must be one of ${DRIVERS.join(', ')}` }],
          },
        );
      }
      return found;
    },
    contract(): Representation {
      return contract;
    },
  };
}

export type CatalogDriver = Driver;
