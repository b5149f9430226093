const account = {
	adminUser: 'Change_here',
	adminPassword: 'Change_here'
};

output.account = account;