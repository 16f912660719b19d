// An unknown role name fails naming config.host.roles and listing the known roles.
import t from 'tap';
import { resolveRoles } from '../../runtime/roles.js';
import { ROLE_FACTORIES } from '../../app/roles.js';

t.test('unknown role names host.roles and lists the known ones', async (t) => {
  t.throws(() => resolveRoles(['nope'], ROLE_FACTORIES), /config\.host\.roles: unknown role "nope" \(known: all, echo/);
});
