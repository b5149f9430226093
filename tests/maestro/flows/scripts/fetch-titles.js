// Test data from the team's server, as setup scripts do.
const response = http.get(`${API_URL}/titles?count=${COUNT}`, { headers: { Accept: 'application/json' } });
if (!response.ok) throw new Error(`the test-data server answered ${response.status}`);
output.titles = json(response.body).titles;
console.log(`titles: ${output.titles.join(', ')}`);
