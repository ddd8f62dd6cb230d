import t from 'tap';
import { rateLimitGroup } from '../../../src/http/rate-limit.js';
import { mostRequestsWithin } from '../../../src/http/rate-limit-policy.js';
import { waitInWords } from '../../../src/web/waits.js';

t.test('which requests spend which budget', async (t) => {
  t.equal(rateLimitGroup('GET', '/oauth/authorize?client_id=a'), 'authorize');
  t.equal(rateLimitGroup('POST', '/oauth/authorize'), 'authorize', 'every method at the authorization endpoint');
  t.equal(rateLimitGroup('HEAD', '/oauth/authorize'), 'authorize');
  t.equal(rateLimitGroup('GET', '/oauth/authorize/uid123'), undefined, 'resuming needs a live interaction: not counted');
  t.equal(rateLimitGroup('GET', '/interaction/uid123'), 'interactionPages');
  t.equal(rateLimitGroup('GET', '/interaction/uid123/password?org=x'), 'interactionPages');
  t.equal(rateLimitGroup('HEAD', '/interaction/uid123'), 'interactionPages');
  t.equal(rateLimitGroup('POST', '/interaction/uid123/password'), undefined, 'sign-in attempts: the login throttle\'s');
  t.equal(rateLimitGroup('GET', '/assets/lanyard.css'), undefined, 'assets are not counted');
  t.equal(rateLimitGroup('POST', '/oauth/token'), undefined);
  t.equal(rateLimitGroup('GET', '/.well-known/openid-configuration'), undefined);
});

t.test('fixed windows: the most requests one key can make within a span', async (t) => {
  const budgets = [{ name: 'm', max: 10, windowSeconds: 60 }, { name: 'h', max: 30, windowSeconds: 3600 }];
  t.equal(mostRequestsWithin(budgets, 0), 10, 'one window');
  t.equal(mostRequestsWithin(budgets, 60), 20, 'a minute meets two minute windows');
  t.equal(mostRequestsWithin(budgets, 15 * 60), 60, 'the hourly budget binds: two hour windows');
});

t.test('waits in words', async (t) => {
  t.equal(waitInWords(20), '20 seconds');
  t.equal(waitInWords(60), 'about a minute');
  t.equal(waitInWords(3540), '59 minutes');
});
