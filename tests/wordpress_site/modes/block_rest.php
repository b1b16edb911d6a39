<?php
// A security plugin that closes the REST API to every request, signed in or not, answering
// with the code WordPress itself uses for a failed authentication check.
add_filter(
	'rest_authentication_errors',
	function () {
		return new WP_Error( 'rest_authentication_error', 'The REST API is turned off.', array( 'status' => 401 ) );
	},
	PHP_INT_MAX
);
