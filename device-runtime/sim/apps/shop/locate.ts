import type { Geolocation } from '../../../protocol/index.js';

/** A delivery address the checkout's "Use my location" fills in, by the city nearest the device. */
interface City {
  name: string;
  latitude: number;
  longitude: number;
  address: string;
}

/** Mountain View: the address the checkout has always filled in, and still does with no location. */
export const MOUNTAIN_VIEW: City = {
  name: 'Mountain View',
  latitude: 37.422,
  longitude: -122.084,
  address: '1600 Amphitheatre Pkwy, Mountain View',
};

/** The cities the shop delivers to (docs/app-world.md lists them for tests). */
export const CITIES: readonly City[] = [
  MOUNTAIN_VIEW,
  { name: 'Berlin', latitude: 52.52, longitude: 13.405, address: 'Unter den Linden 1, 10117 Berlin' },
  { name: 'London', latitude: 51.507, longitude: -0.128, address: '1 Trafalgar Square, London WC2N 5DN' },
  { name: 'New York', latitude: 40.713, longitude: -74.006, address: '350 5th Ave, New York, NY 10118' },
  { name: 'São Paulo', latitude: -23.551, longitude: -46.633, address: 'Av. Paulista 1578, São Paulo' },
  { name: 'Tokyo', latitude: 35.676, longitude: 139.65, address: '1-1 Chiyoda, Chiyoda City, Tokyo' },
  { name: 'Sydney', latitude: -33.869, longitude: 151.209, address: 'Bennelong Point, Sydney NSW 2000' },
];

/** Great-circle distance in km (haversine). */
function km(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 12_742 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The delivery address for a location: the nearest city's; Mountain View's when there is no location. */
export function addressFor(location: Geolocation | null): string {
  if (!location) return MOUNTAIN_VIEW.address;
  return CITIES.reduce((best, c) => (km(location, c) < km(location, best) ? c : best)).address;
}
