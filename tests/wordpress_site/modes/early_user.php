<?php
// A plugin that reads the signed-in user while the REST request is being authenticated, before
// WordPress's own check (as many do): the failed application password's own error then answers,
// invalid_username or incorrect_password, instead of rest_not_logged_in.
add_filter(
	'rest_authentication_errors',
	function ( $result ) {
		wp_get_current_user();
		return $result;
	},
	10
);
