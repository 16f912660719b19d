// Tool use: combine a weather tool and a flight search to book the cheapest direct flight on a dry day.
const CITIES = ['Lisbon', 'Bergen', 'Split', 'Cork', 'Bari', 'Tromso'];
const SKIES = ['sunny', 'cloudy', 'clear', 'showers', 'drizzle', 'thunderstorms', 'rain'];
const WET = ['showers', 'drizzle', 'thunderstorms', 'rain'];
const TOOLS = 'forecast({"city": c, "day": d}), flights({"to": c, "day": d}), book({"flight": id})';

export const spec = {
  name: 'dry-flight',
  description: 'Book the cheapest direct flight to the destination on one of the allowed days when no rain is forecast there. One booking only.',
  hint: 'Showers, drizzle and thunderstorms all count as rain. Check the forecast for every allowed day first, then search flights only for the dry days and ignore flights with stops.',
  maxTurns: 10,
};

export default class Env {
  reset(seed) {
    const cheapest = (wet) => this.flights.filter((f) => f.stops === 0 && !wet.includes(this.sky[f.day])).sort((x, y) => x.price - y.price)[0];
    do {
      this.city = kit.pick(CITIES);
      const start = kit.randInt(0, 2);
      this.days = ['mon', 'tue', 'wed', 'thu', 'fri'].slice(start, start + 3);
      this.sky = {};
      this.flights = [];
      for (const d of this.days) {
        this.sky[d] = kit.pick(SKIES);
        for (let i = 0; i < 3; i++) this.flights.push({ id: `${d.toUpperCase()}${kit.randInt(100, 999)}`, day: d, price: kit.randInt(40, 300), stops: kit.pick([0, 0, 1]) });
      }
      // Someone who only avoids plain "rain" must pick a wrong flight.
    } while (!cheapest(WET) || cheapest(WET) === cheapest(['rain']));
    this.best = cheapest(WET).price;
    return { observation: kit.lines(`Fly to ${this.city} on ${this.days.join(', ')}.`, `Tools: ${TOOLS}`) };
  }
  step(action) {
    const call = kit.parseCall(action) || { name: '', args: {} };
    const a = call.args || {}, day = String(a.day || '').toLowerCase().slice(0, 3);
    let out = `Unknown call, city or day. Tools: ${TOOLS}`;
    if (call.name === 'forecast' && a.city === this.city && this.days.includes(day)) out = `${this.city}, ${day}: ${this.sky[day]}`;
    else if (call.name === 'flights' && a.to === this.city && this.days.includes(day)) {
      out = kit.lines(this.flights.filter((f) => f.day === day).map((f) => `${f.id}  ${f.price} EUR  ${f.stops ? '1 stop' : 'direct'}`));
    } else if (call.name === 'book') {
      const f = this.flights.find((x) => x.id === a.flight);
      const ok = !!f && f.stops === 0 && !WET.includes(this.sky[f.day]) && f.price === this.best;
      return { observation: ok ? 'Booked: cheapest dry direct flight.' : 'Booked, but that was not the cheapest direct flight on a dry day.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: out, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  const first = history.length ? history[0].observation : observation;
  const city = CITIES.find((c) => first.includes(c)), days = first.match(/ on (.*)\./)[1].split(', ');
  if (history.length < days.length) return `forecast({"city": "${city}", "day": "${days[history.length]}"})`;
  const seen = history.slice(1).map((h) => h.observation).concat(observation);
  const dry = days.filter((d, i) => !WET.some((w) => seen[i].endsWith(w)));
  const asked = history.length - days.length;
  if (asked < dry.length) return `flights({"to": "${city}", "day": "${dry[asked]}"})`;
  const offers = seen.slice(days.length).join('\n').split('\n').filter((l) => l.endsWith('direct')).map((l) => l.split(/\s+/));
  offers.sort((x, y) => Number(x[1]) - Number(y[1]));
  return `book({"flight": "${offers.length ? offers[0][0] : ''}"})`;
}
