<?php
// Application passwords switched off, as Wordfence does by default: a Basic header is ignored
// and the REST index lists no way to authenticate.
add_filter( 'wp_is_application_passwords_available', '__return_false' );
