<?php
// The fixture's hands inside the test site, run with php-cli: install it, hand out and revoke
// the editor's application passwords, read posts with the administrator's rights. Prints JSON.
define( 'ABSPATH', getenv( 'TEST_WP_ROOT' ) );
const EDITOR = 'editor';

$command = $argv[1] ?? '';
if ( 'install' === $command ) {
	define( 'WP_INSTALLING', true );
}
$_SERVER['HTTP_HOST'] = (string) parse_url( getenv( 'TEST_WP_URL' ), PHP_URL_HOST );
require ABSPATH . 'wp-load.php';

function editor_id() {
	return get_user_by( 'login', EDITOR )->ID;
}

function new_app_password() {
	$created = WP_Application_Passwords::create_new_application_password(
		editor_id(),
		array( 'name' => 'makale-bot-' . wp_generate_password( 8, false ) )
	);
	if ( is_wp_error( $created ) ) {
		fwrite( STDERR, $created->get_error_message() . "\n" );
		exit( 1 );
	}
	return WP_Application_Passwords::chunk_password( $created[0] );
}

// The REST answer for a route, as the administrator sees it with context=edit.
function rest_as_admin( $route, $query ) {
	wp_set_current_user( 1 );
	$request = new WP_REST_Request( 'GET', $route );
	$request->set_query_params( $query + array( 'context' => 'edit' ) );
	$response = rest_do_request( $request );
	return array(
		'status' => $response->get_status(),
		'data'   => rest_get_server()->response_to_data( $response, false ),
	);
}

// The installer mails the administrator; there is no mail here.
function wp_new_blog_notification() {}

switch ( $command ) {
	case 'install':
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		wp_install( 'Makale Test', 'admin', 'admin@example.test', false, '', wp_generate_password( 24 ) );
		// A zone that is not UTC, as the bot's clients' sites have: a post's date is not its date_gmt.
		update_option( 'timezone_string', 'Europe/Istanbul' );
		$GLOBALS['wp_rewrite']->set_permalink_structure( '/%postname%/' );
		flush_rewrite_rules( false );
		wp_insert_user(
			array(
				'user_login' => EDITOR,
				'user_pass'  => wp_generate_password( 24 ),
				'user_email' => 'editor@example.test',
				'role'       => 'editor',
			)
		);
		$answer = array( 'username' => EDITOR, 'app_password' => new_app_password() );
		break;
	case 'new-app-password':
		$answer = new_app_password();
		break;
	case 'revoke-app-passwords':
		$answer = WP_Application_Passwords::delete_all_application_passwords( editor_id() );
		break;
	case 'post':
		$answer = rest_as_admin( '/wp/v2/posts/' . (int) $argv[2], array() );
		break;
	case 'posts':
		$answer = rest_as_admin( '/wp/v2/posts', array( 'status' => 'any', 'per_page' => 100 ) );
		break;
	default:
		fwrite( STDERR, "unknown command: $command\n" );
		exit( 2 );
}
echo wp_json_encode( $answer );
