<?php
// Pretty permalinks off ("Plain"), as on a host without URL rewriting: WordPress links to
// ?p= and ?rest_route=, and the router (seeing this file) answers 404 for /wp-json/.
add_filter( 'pre_option_permalink_structure', '__return_empty_string' );
