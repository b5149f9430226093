/* eslint-disable no-undef */

output.isLoggedIn = true;
